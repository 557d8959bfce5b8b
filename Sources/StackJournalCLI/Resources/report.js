'use strict';
// The time-travel page of `stackjournal report`. Everything it shows comes from the JSON block
// `journal-data`, which the command wrote from the journal: the stacks at the first moment (as
// `show --at` rebuilds them) and each entry's stack delta. The page applies the deltas in order;
// every text from the journal reaches the page through `textContent`, never as markup.

// Applies one entry's changes to stacks (sorted by path) and returns new stacks; the stacks
// given are not modified, so earlier moments stay valid. Throws when a change does not fit. The
// rules are those of `StackChange.fit` in Swift; the cases of
// `Tests/Fixtures/stack-delta-corpus.json` check that this function follows them too. Declared
// outside the page's function, so a test can call it on a page holding nothing but this script.
function applyChanges(stacks, changes) {
  const result = stacks.slice();
  for (const change of changes) {
    const [path, nextID, ids, pushed, popped, changed, removed, kind] = change;
    const index = result.findIndex((stack) => stack.path === path);
    const where = 'the change to the stack ' + JSON.stringify(path);
    const byID = new Map();
    if (index >= 0) for (const item of result[index].elements) byID.set(item.id, item);
    const pop = (id) => {
      if (!byID.delete(id)) throw new Error(where + ' pops #' + id + ', which it does not hold');
    };
    if (removed) {
      if (index < 0) throw new Error(where + ' removes a stack that does not exist');
      popped.forEach(pop);
      if (byID.size > 0) throw new Error(where + ' removes the stack without popping all it holds');
      result.splice(index, 1);
      continue;
    }
    if (index >= 0 && nextID < result[index].nextID) {
      throw new Error(where + ' moves the next ID back to #' + nextID);
    }
    popped.forEach(pop);
    const rewritten = new Set();
    for (const stored of changed) {
      if (!byID.has(stored.id)) throw new Error(where + ' changes #' + stored.id);
      if (rewritten.has(stored.id)) throw new Error(where + ' changes #' + stored.id + ' twice');
      rewritten.add(stored.id);
    }
    for (const stored of changed) byID.set(stored.id, stored);
    for (const stored of pushed) {
      if (byID.has(stored.id)) throw new Error(where + ' pushes #' + stored.id + ', held already');
      byID.set(stored.id, stored);
    }
    if (ids.length !== byID.size) throw new Error(where + ' lists the wrong number of IDs');
    const listed = new Set();
    const elements = ids.map((id) => {
      const item = byID.get(id);
      if (!item) throw new Error(where + ' lists #' + id + ', which it does not hold');
      if (listed.has(id)) throw new Error(where + ' lists #' + id + ' twice');
      if (!(id < nextID)) throw new Error(where + ' holds #' + id + ', not below the next ID');
      listed.add(id);
      return item;
    });
    const stack = { path: path, kind: kind, nextID: nextID, elements: elements };
    if (index >= 0) {
      result[index] = stack;
    } else {
      let position = result.findIndex((other) => other.path > path);
      if (position < 0) position = result.length;
      result.splice(position, 0, stack);
    }
  }
  return result;
}

(function () {
  const CHECKPOINT_EVERY = 256;
  const ROW_HEIGHT = 28;
  const GAP_MS = 1000;

  const $ = (id) => document.getElementById(id);

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function fail(message) {
    const box = el('p', null, message);
    box.id = 'problem';
    document.body.insertBefore(box, document.body.firstChild);
  }

  let data;
  try {
    data = JSON.parse($('journal-data').textContent);
  } catch (error) {
    fail('The data of this page cannot be read: ' + error.message);
    return;
  }
  if (data.format !== 1) {
    fail('This page holds data of format ' + data.format + ', which this page does not read.');
    return;
  }

  const from = data.from;
  const to = data.to;
  const entries = data.entries;
  const types = data.types;

  // ---- Reconstruction: the stacks at a sequence, from the stacks at `from` and the deltas
  // (`applyChanges`, above).

  function entryAt(sequence) {
    return entries[sequence - from - 1];
  }

  const checkpoints = [data.start];
  let cached = { sequence: from, stacks: data.start };

  function stacksAt(sequence) {
    const slot = Math.floor((sequence - from) / CHECKPOINT_EVERY);
    while (checkpoints.length <= slot) {
      const last = checkpoints.length - 1;
      let stacks = checkpoints[last];
      const start = from + last * CHECKPOINT_EVERY;
      for (let s = start + 1; s <= start + CHECKPOINT_EVERY; s++) {
        stacks = applyChanges(stacks, entryAt(s)[4]);
      }
      checkpoints.push(stacks);
    }
    let current = from + slot * CHECKPOINT_EVERY;
    let stacks = checkpoints[slot];
    if (cached.sequence >= current && cached.sequence <= sequence) {
      current = cached.sequence;
      stacks = cached.stacks;
    }
    while (current < sequence) {
      current += 1;
      stacks = applyChanges(stacks, entryAt(current)[4]);
    }
    cached = { sequence: sequence, stacks: stacks };
    return stacks;
  }

  // ---- Per-entry facts for the timeline: kind, stack depth after it, time.

  const count = entries.length;
  const kinds = new Uint8Array(count); // 0 none, 1 change, 2 pop, 3 push, 4 push and pop
  const depths = new Uint32Array(count + 1);
  const times = new Float64Array(count + 1);
  const sizes = new Map();
  let depth = 0;
  for (const stack of data.start) {
    sizes.set(stack.path, stack.elements.length);
    depth += stack.elements.length;
  }
  depths[0] = depth;
  times[0] = data.startTime;
  let maxDepth = depth;
  for (let i = 0; i < count; i++) {
    const entry = entries[i];
    let pushes = 0;
    let pops = 0;
    let changes = 0;
    for (const change of entry[4]) {
      pushes += change[3].length;
      pops += change[4].length;
      changes += change[5].length;
      const before = sizes.get(change[0]) || 0;
      const after = change[6] ? 0 : change[2].length;
      depth += after - before;
      if (change[6]) sizes.delete(change[0]); else sizes.set(change[0], after);
    }
    kinds[i] = pushes && pops ? 4 : pushes ? 3 : pops ? 2 : changes ? 1 : 0;
    depths[i + 1] = depth;
    if (depth > maxDepth) maxDepth = depth;
    times[i + 1] = data.startTime + entry[1];
  }

  // ---- Text helpers.

  function iso(ms) {
    const date = new Date(ms);
    return isNaN(date.getTime()) ? '?' : date.toISOString();
  }

  function clock(ms) {
    const text = iso(ms);
    return text.length > 12 ? text.slice(11, 23) : text;
  }

  function duration(ms) {
    if (ms < 0) return '−' + duration(-ms);
    if (ms < 1000) return Math.round(ms) + ' ms';
    if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
    if (ms < 3600000) return (ms / 60000).toFixed(1) + ' min';
    if (ms < 86400000) return (ms / 3600000).toFixed(1) + ' h';
    return (ms / 86400000).toFixed(1) + ' d';
  }

  function clip(text, limit) {
    return text.length > limit ? text.slice(0, limit - 1) + '…' : text;
  }

  function compact(value) {
    return JSON.stringify(value);
  }

  function pretty(value) {
    return JSON.stringify(value, null, 2);
  }

  // A one-line summary of an element's state: its first fields.
  function summary(state) {
    if (state && typeof state === 'object' && !Array.isArray(state)) {
      const keys = Object.keys(state);
      if (keys.length === 0) return '{}';
      const parts = keys.slice(0, 4).map((key) => {
        const value = state[key];
        let shown;
        if (Array.isArray(value)) shown = '[' + value.length + ']';
        else if (value && typeof value === 'object') shown = '{…}';
        else shown = clip(compact(value), 48);
        return key + ' ' + shown;
      });
      if (keys.length > 4) parts.push('+' + (keys.length - 4) + ' more');
      return parts.join(' · ');
    }
    return clip(compact(state), 120);
  }

  function stackName(path) {
    return path === '' ? '(root)' : path;
  }

  function effectsOf(entry) {
    const effects = [];
    for (const change of entry[4]) {
      const name = stackName(change[0]);
      if (change[6]) {
        effects.push(['pop', name + ' removed']);
        continue;
      }
      for (const pushed of change[3]) {
        effects.push(['push', '+#' + pushed.id + (pushed.case === null ? '' : ' ' + pushed.case)]);
      }
      for (const id of change[4]) effects.push(['pop', '−#' + id]);
      for (const changed of change[5]) effects.push(['change', '~#' + changed.id]);
    }
    return effects;
  }

  // ---- Static parts: the session.

  const session = data.session;
  $('session-name').textContent = session.id;
  document.title = 'StackJournal · ' + session.id;
  const facts = $('session-facts');
  function fact(name, value) {
    const item = el('div');
    item.appendChild(el('dt', null, name));
    item.appendChild(el('dd', null, value));
    facts.appendChild(item);
  }
  fact('created', iso(Date.parse(session.createdAt)).replace('T', ' ').replace('Z', ' UTC'));
  fact('entries', from === data.base && to === session.headSequence
    ? String(session.headSequence - data.base)
    : (to - from) + ' shown (sequences ' + from + '–' + to + ' of ' + data.base + '–'
      + session.headSequence + ')');
  fact('span', duration(times[count] - times[0]));
  if (session.forkedFrom !== null) {
    fact('forked from', session.forkedFrom + ' at sequence ' + session.forkedAt);
  }
  const extra = $('session-extra');
  if (session.metadata !== null) {
    const details = el('details');
    details.appendChild(el('summary', null, 'metadata'));
    details.appendChild(el('pre', null, pretty(session.metadata)));
    extra.appendChild(details);
  }
  if (session.forks.length > 0) {
    const details = el('details');
    details.appendChild(el('summary', null, session.forks.length === 1
      ? '1 fork' : session.forks.length + ' forks'));
    const list = el('pre', null, session.forks.map((fork) =>
      fork.id + ' from sequence ' + fork.at).join('\n'));
    details.appendChild(list);
    extra.appendChild(details);
  }
  const generated = el('span', 'stack-info', 'page written ' + iso(Date.parse(data.generatedAt))
    .replace('T', ' ').replace('Z', ' UTC') + ' by ' + data.generator);
  extra.appendChild(generated);

  // ---- Filter by action type.

  const typeCounts = new Uint32Array(types.length);
  for (const entry of entries) typeCounts[entry[2]] += 1;
  const filterSelect = $('type-filter');
  const all = el('option', null, 'all ' + count + ' entries');
  all.value = '-1';
  filterSelect.appendChild(all);
  types
    .map((type, index) => ({ type: type, index: index }))
    .sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0))
    .forEach((item) => {
      const option = el('option', null, item.type + ' (' + typeCounts[item.index] + ')');
      option.value = String(item.index);
      filterSelect.appendChild(option);
    });
  let filterType = -1;
  let visible = null; // the entry indexes shown when filtered; null for all

  function matches(sequence) {
    if (sequence <= from) return filterType < 0;
    return filterType < 0 || entryAt(sequence)[2] === filterType;
  }

  // ---- Selection.

  let selected = from;
  const slider = $('slider');
  slider.min = String(from);
  slider.max = String(to);

  function step(direction, times) {
    let target = selected;
    for (let n = 0; n < times; n++) {
      let next = target + direction;
      while (next >= from && next <= to && filterType >= 0 && !matches(next)) next += direction;
      if (next < from || next > to) break;
      target = next;
    }
    select(target);
  }

  function select(sequence, options) {
    const target = Math.max(from, Math.min(to, Math.round(sequence)));
    selected = target;
    slider.value = String(target);
    render();
    if (!options || options.scroll !== false) revealRow(target);
    try {
      history.replaceState(null, '', '#seq=' + target);
    } catch (error) {
      // A page opened from some places cannot change its address; the selection still works.
    }
  }

  // ---- The moment: action, effects, stacks as cards.

  function fieldList(fields) {
    const list = el('ul', 'fields');
    for (const [path, before, after] of fields[2]) {
      const item = el('li');
      item.appendChild(el('span', 'field-path', path));
      item.appendChild(document.createTextNode(' '));
      if (before !== null) item.appendChild(el('span', 'old', before));
      if (before !== null && after !== null) item.appendChild(document.createTextNode(' → '));
      if (after !== null) item.appendChild(el('span', 'new', after));
      if (before === null) item.appendChild(document.createTextNode(' (added)'));
      if (after === null) item.appendChild(document.createTextNode(' (removed)'));
      list.appendChild(item);
    }
    if (fields[3] > 0) list.appendChild(el('li', null, '… ' + fields[3] + ' more fields'));
    return list;
  }

  function card(item, role, fields, nestedOf, isTop, sequence) {
    const node = el('article', 'card' + (role ? ' ' + role : '') + (isTop ? '' : ' below'));
    node.dataset.id = String(item.id);
    const head = el('div', 'card-head');
    head.appendChild(el('span', 'card-id', '#' + item.id));
    head.appendChild(el('span', 'card-case', item.case === null ? '(no case)' : item.case));
    if (item.route) {
      // A coordinator's route: its presentation, then the screen it shows.
      head.appendChild(el('span', 'card-route',
        (item.route.embedInNavigationView ? '(navigation) ' : '') + '→ '
        + (item.route.screen === null ? '(screen)' : item.route.screen)));
    }
    if (isTop) head.appendChild(el('span', 'card-top', 'top'));
    if (role) head.appendChild(el('span', 'badge', role));
    node.appendChild(head);
    node.appendChild(el('div', 'card-summary', summary(item.state)));
    if (fields) node.appendChild(fieldList(fields));
    const details = el('details');
    details.appendChild(el('summary', null, 'state'));
    details.appendChild(el('pre', null, pretty(item.state)));
    node.appendChild(details);
    const nested = nestedOf(item.id);
    if (nested.length > 0) {
      const box = el('div', 'nested stacks');
      for (const stack of nested) box.appendChild(stackView(stack, sequence));
      node.appendChild(box);
    }
    return node;
  }

  // Where the stacks nested in an element are: `path[#3].counter.path` is inside #3 of `path`.
  function parentOf(path) {
    const match = /^(.*)\[#(\d+)\][^\[]*(?:\[(?!#)[^\]]*\][^\[]*)*$/.exec(path);
    return match ? { path: match[1], id: Number(match[2]) } : null;
  }

  let moment = null; // what render() draws: stacks, highlights, children

  function stackView(stack, sequence) {
    const box = el('section', 'stack');
    box.dataset.path = stack.path;
    const head = el('div', 'stack-head');
    head.appendChild(el('h3', 'stack-path', stackName(stack.path)));
    const n = stack.elements.length;
    head.appendChild(el('span', 'stack-info', stack.kind === 'routes'
      ? n + (n === 1 ? ' route' : ' routes')
      : n + (n === 1 ? ' element' : ' elements') + ' · next ID #' + stack.nextID));
    const change = moment.changes.get(stack.path);
    if (change && change.created) head.appendChild(el('span', 'stack-note', 'new stack'));
    box.appendChild(head);
    const deck = el('div', 'deck');
    const ghosts = change ? change.popped : [];
    for (const ghost of ghosts) {
      deck.appendChild(card(ghost, 'popped', null, () => [], false, sequence));
    }
    const reversed = stack.elements.slice().reverse();
    reversed.forEach((item, index) => {
      let role = null;
      let fields = null;
      if (change && change.pushed.has(item.id)) role = 'pushed';
      else if (change && change.changed.has(item.id)) {
        role = 'changed';
        fields = change.changed.get(item.id);
      }
      deck.appendChild(card(item, role, fields,
        (id) => moment.children.get(stack.path + '\u0000' + id) || [], index === 0, sequence));
    });
    if (n === 0 && ghosts.length === 0) deck.appendChild(el('div', 'empty', 'empty stack'));
    box.appendChild(deck);
    return box;
  }

  function render() {
    const sequence = selected;
    const stacks = stacksAt(sequence);
    const entry = sequence > from ? entryAt(sequence) : null;
    const before = entry ? stacksAt(sequence - 1) : null;
    if (entry) stacksAt(sequence); // keep the cache at the selection for the next step
    const changes = new Map();
    if (entry) {
      const fieldsByElement = new Map();
      for (const fields of entry[5]) fieldsByElement.set(fields[0] + '\u0000' + fields[1], fields);
      for (const change of entry[4]) {
        const old = before.find((stack) => stack.path === change[0]);
        const poppedIDs = new Set(change[4]);
        const info = changes.get(change[0]) || {
          created: false, pushed: new Set(), changed: new Map(), popped: [],
        };
        info.created = info.created || (!change[6] && !old);
        for (const pushed of change[3]) info.pushed.add(pushed.id);
        for (const changed of change[5]) {
          info.changed.set(changed.id,
            fieldsByElement.get(change[0] + '\u0000' + changed.id) || null);
        }
        const popped = old ? old.elements.filter((item) => poppedIDs.has(item.id)) : [];
        info.popped.push(...popped.reverse());
        changes.set(change[0], info);
      }
    }
    const children = new Map();
    const topLevel = [];
    const known = new Set(stacks.map((stack) => stack.path));
    for (const stack of stacks) {
      const parent = parentOf(stack.path);
      if (parent && known.has(parent.path)) {
        const key = parent.path + '\u0000' + parent.id;
        if (!children.has(key)) children.set(key, []);
        children.get(key).push(stack);
      } else {
        topLevel.push(stack);
      }
    }
    moment = { changes: changes, children: children };

    $('position').textContent = sequence + ' / ' + to;
    const time = times[sequence - from];
    $('moment-title').textContent = entry
      ? 'Sequence ' + sequence
      : sequence === 0 ? 'Sequence 0 · the initial state' : 'Sequence ' + sequence + ' · start';
    $('moment-time').textContent = iso(time).replace('T', ' ').replace('Z', ' UTC');
    $('action-type').textContent = entry
      ? types[entry[2]]
      : 'no action: the stacks before the first entry shown';
    const effects = $('action-effects');
    effects.replaceChildren();
    if (entry) {
      const list = effectsOf(entry);
      if (list.length === 0) effects.appendChild(el('li', 'effect none', 'no stack change'));
      for (const [kind, text] of list) effects.appendChild(el('li', 'effect ' + kind, text));
    }
    const payload = entry ? compact(entry[3]) : '';
    $('action-payload').textContent = payload.length <= 100 ? payload : pretty(entry[3]);
    $('action-payload').hidden = !entry;

    const container = $('stacks');
    container.replaceChildren();
    if (topLevel.length === 0) container.appendChild(el('div', 'empty', 'no stacks in the state'));
    for (const stack of topLevel) container.appendChild(stackView(stack, sequence));
    // Stacks removed by this entry (a popped element's own stacks) are named once.
    for (const [path, info] of changes) {
      if (!known.has(path) && info.popped.length > 0 && !parentOf(path)) {
        const gone = el('section', 'stack');
        const head = el('div', 'stack-head');
        head.appendChild(el('h3', 'stack-path', stackName(path)));
        head.appendChild(el('span', 'stack-note', 'stack removed'));
        gone.appendChild(head);
        container.appendChild(gone);
      }
    }

    $('state-json').textContent = JSON.stringify({ sequence: sequence, stacks: stacks });
    drawOverview();
    renderRows();
  }

  // ---- The entry list: one row per entry, drawn only where it is visible.

  const scroller = $('timeline-scroll');
  const spacer = $('timeline-spacer');
  let rowsShown = new Map();

  function rowCount() {
    return visible ? visible.length : count + 1;
  }

  function sequenceOfRow(row) {
    return visible ? visible[row] : from + row;
  }

  function rowOfSequence(sequence) {
    if (!visible) return sequence - from;
    let low = 0;
    let high = visible.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (visible[middle] === sequence) return middle;
      if (visible[middle] < sequence) low = middle + 1; else high = middle - 1;
    }
    return -1;
  }

  function makeRow(sequence) {
    const row = el('div', 'row');
    row.dataset.seq = String(sequence);
    row.appendChild(el('span', 'seq', sequence));
    const index = sequence - from;
    if (index === 0) {
      row.appendChild(el('span', 'dt', ''));
      const what = el('span', 'what');
      what.appendChild(el('span', 'dot'));
      what.appendChild(el('span', 'type', sequence === 0 ? 'initial state' : 'start'));
      row.appendChild(what);
      row.title = iso(times[0]);
      return row;
    }
    const entry = entries[index - 1];
    const gap = times[index] - times[index - 1];
    if (gap >= GAP_MS) row.classList.add('gap');
    row.appendChild(el('span', 'dt', '+' + duration(gap)));
    const what = el('span', 'what');
    const kind = kinds[index - 1];
    what.appendChild(el('span', 'dot' + (kind === 3 || kind === 4 ? ' push' : kind === 2
      ? ' pop' : kind === 1 ? ' change' : '')));
    what.appendChild(el('span', 'type', types[entry[2]]));
    row.appendChild(what);
    row.title = iso(times[index]) + '\n' + types[entry[2]] + '\n'
      + effectsOf(entry).map((effect) => effect[1]).join(' ');
    return row;
  }

  function renderRows() {
    const total = rowCount();
    spacer.style.height = total * ROW_HEIGHT + 'px';
    const first = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - 10);
    const last = Math.min(total - 1,
      Math.ceil((scroller.scrollTop + (scroller.clientHeight || 600)) / ROW_HEIGHT) + 10);
    const next = new Map();
    for (let row = first; row <= last; row++) {
      const sequence = sequenceOfRow(row);
      let node = rowsShown.get(sequence);
      if (!node) {
        node = makeRow(sequence);
        spacer.appendChild(node);
      }
      node.style.top = row * ROW_HEIGHT + 'px';
      node.classList.toggle('selected', sequence === selected);
      next.set(sequence, node);
    }
    for (const [sequence, node] of rowsShown) if (!next.has(sequence)) node.remove();
    rowsShown = next;
    $('timeline-count').textContent = visible
      ? visible.length + ' of ' + count + ' match'
      : count + (count === 1 ? ' entry' : ' entries');
  }

  function revealRow(sequence) {
    const row = rowOfSequence(sequence);
    if (row < 0) return;
    const top = row * ROW_HEIGHT;
    const height = scroller.clientHeight || 600;
    if (top < scroller.scrollTop || top + ROW_HEIGHT > scroller.scrollTop + height) {
      scroller.scrollTop = Math.max(0, top - height / 2);
      renderRows();
    }
  }

  let scrollPending = false;
  scroller.addEventListener('scroll', () => {
    if (scrollPending) return;
    scrollPending = true;
    requestAnimationFrame(() => {
      scrollPending = false;
      renderRows();
    });
  });
  spacer.addEventListener('click', (event) => {
    const row = event.target.closest('.row');
    if (row) select(Number(row.dataset.seq), { scroll: false });
  });

  // ---- The overview: stack depth over the session, what each entry did, pauses in time.

  const canvas = $('overview-canvas');
  const tip = $('overview-tip');
  const colors = { 1: '#b26a00', 2: '#c2372f', 3: '#1f8a4c', 4: '#1f8a4c' };

  function xOf(sequence, width) {
    return to === from ? width / 2 : ((sequence - from) / (to - from)) * (width - 1);
  }

  // The overview's picture without the selection, drawn again only when its size or the filter
  // changes; each move copies it and draws the selection on top.
  let background = null;
  let backgroundKey = '';

  function drawBackground(width, height, ratio) {
    const picture = document.createElement('canvas');
    picture.width = width;
    picture.height = height;
    const context = picture.getContext('2d');
    const top = 4 * ratio;
    const band = height - 16 * ratio;
    const tickTop = height - 10 * ratio;
    // Per pixel column: the largest depth, the strongest kind of entry (push or pop, then
    // change), whether an entry of the filtered type is there, and whether a pause starts there.
    const deepest = new Float64Array(width).fill(-1);
    const strongest = new Int8Array(width).fill(-1);
    const matching = new Uint8Array(width);
    const paused = new Uint8Array(width);
    const rank = [0, 1, 2, 2, 2];
    for (let i = 0; i <= count; i++) {
      const x = Math.floor(xOf(from + i, width));
      if (depths[i] > deepest[x]) deepest[x] = depths[i];
      if (i === 0) continue;
      const kind = kinds[i - 1];
      if (strongest[x] < 0 || rank[kind] > rank[strongest[x]]) strongest[x] = kind;
      if (filterType < 0 || entries[i - 1][2] === filterType) matching[x] = 1;
      if (times[i] - times[i - 1] >= GAP_MS) paused[x] = 1;
    }
    context.fillStyle = '#c9d3ea';
    let last = 0;
    for (let x = 0; x < width; x++) {
      const value = deepest[x] >= 0 ? deepest[x] : last;
      last = value;
      const h = maxDepth === 0 ? 0 : (value / maxDepth) * band;
      context.fillRect(x, top + band - h, 1, h);
    }
    const tick = Math.max(1, Math.round(ratio));
    for (let x = 0; x < width; x++) {
      if (strongest[x] < 0) continue;
      context.globalAlpha = matching[x] ? 0.9 : 0.15;
      context.fillStyle = colors[strongest[x]] || '#98a2b3';
      context.fillRect(x, tickTop, tick, 8 * ratio);
    }
    context.globalAlpha = 1;
    context.fillStyle = '#7a3fc2';
    for (let x = 0; x < width; x++) {
      if (paused[x]) context.fillRect(x - ratio, 0, 2 * ratio, height);
    }
    return picture;
  }

  function drawOverview() {
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const key = width + 'x' + height + '@' + ratio + '/' + filterType;
    if (key !== backgroundKey) {
      background = drawBackground(width, height, ratio);
      backgroundKey = key;
    }
    const context = canvas.getContext('2d');
    context.clearRect(0, 0, width, height);
    context.drawImage(background, 0, 0);
    const x = xOf(selected, width);
    context.fillStyle = '#2f5bd3';
    context.fillRect(Math.round(x) - ratio, 0, 2 * ratio, height);
  }

  function sequenceAt(clientX) {
    const box = canvas.getBoundingClientRect();
    const fraction = box.width > 0 ? (clientX - box.left) / box.width : 0;
    return Math.max(from, Math.min(to, Math.round(from + fraction * (to - from))));
  }

  let dragging = false;
  canvas.addEventListener('pointerdown', (event) => {
    dragging = true;
    canvas.setPointerCapture(event.pointerId);
    select(sequenceAt(event.clientX));
  });
  canvas.addEventListener('pointerup', () => { dragging = false; });
  canvas.addEventListener('pointermove', (event) => {
    const sequence = sequenceAt(event.clientX);
    if (dragging) select(sequence);
    const index = sequence - from;
    tip.replaceChildren();
    tip.appendChild(el('div', 'mono', 'sequence ' + sequence + ' · ' + iso(times[index])));
    tip.appendChild(el('div', 'mono', index === 0 ? (sequence === 0 ? 'initial state' : 'start')
      : types[entries[index - 1][2]]));
    if (index > 0) tip.appendChild(el('div', null, '+' + duration(times[index] - times[index - 1])
      + ' after the previous entry · depth ' + depths[index]));
    const box = canvas.getBoundingClientRect();
    const parent = $('overview').getBoundingClientRect();
    tip.style.left = Math.min(parent.width - 370, Math.max(0, event.clientX - parent.left + 12))
      + 'px';
    tip.style.top = (box.bottom - parent.top + 4) + 'px';
    tip.hidden = false;
  });
  canvas.addEventListener('pointerleave', () => { tip.hidden = true; });
  window.addEventListener('resize', () => {
    drawOverview();
    renderRows();
  });

  // ---- Controls and keys.

  let timer = null;
  const playButton = $('play');
  function setPlaying(playing) {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playButton.setAttribute('aria-pressed', playing ? 'true' : 'false');
    playButton.setAttribute('aria-label', playing ? 'Pause' : 'Play');
    playButton.title = playing ? 'Pause (Space)' : 'Play (Space)';
    if (!playing) return;
    if (selected >= to) select(from);
    timer = setInterval(() => {
      const before = selected;
      step(1, 1);
      if (selected === before || selected >= to) setPlaying(false);
    }, Number($('speed').value));
  }
  playButton.addEventListener('click', () => setPlaying(timer === null));
  $('speed').addEventListener('change', () => { if (timer !== null) setPlaying(true); });
  $('first').addEventListener('click', () => select(from));
  $('last').addEventListener('click', () => select(to));
  $('back').addEventListener('click', () => step(-1, 1));
  $('forward').addEventListener('click', () => step(1, 1));
  slider.addEventListener('input', () => select(Number(slider.value)));
  filterSelect.addEventListener('change', () => {
    filterType = Number(filterSelect.value);
    if (filterType < 0) {
      visible = null;
    } else {
      visible = [];
      for (let i = 0; i < count; i++) if (entries[i][2] === filterType) visible.push(from + i + 1);
    }
    for (const node of rowsShown.values()) node.remove();
    rowsShown = new Map();
    scroller.scrollTop = 0;
    render();
    revealRow(selected);
  });

  document.addEventListener('keydown', (event) => {
    const target = event.target;
    if (target && (target.tagName === 'SELECT' || target.tagName === 'TEXTAREA'
      || (target.tagName === 'INPUT' && target.type !== 'range'))) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const times = event.shiftKey ? 10 : 1;
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        step(1, times);
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        step(-1, times);
        break;
      case 'Home':
        select(from);
        break;
      case 'End':
        select(to);
        break;
      case ' ':
        if (target && target.tagName === 'BUTTON') return;
        setPlaying(timer === null);
        break;
      default:
        return;
    }
    event.preventDefault();
  });

  window.addEventListener('beforeprint', () => {
    for (const details of document.querySelectorAll('details')) details.open = true;
  });

  function fromHash() {
    const match = /(?:^#|&)seq=(\d+)/.exec(location.hash);
    return match ? Number(match[1]) : null;
  }
  window.addEventListener('hashchange', () => {
    const sequence = fromHash();
    if (sequence !== null && sequence !== selected) select(sequence);
  });

  try {
    const initial = fromHash();
    select(initial === null ? from : initial);
  } catch (error) {
    fail('This page could not rebuild the stacks: ' + error.message);
    throw error;
  }
  document.documentElement.dataset.readyMs = String(Math.round(performance.now()));

  // Rebuild the moments ahead in slices while the page is idle, so a jump far away is quick.
  function buildAhead() {
    const deadline = performance.now() + 12;
    let last = from + (checkpoints.length - 1) * CHECKPOINT_EVERY;
    while (last + CHECKPOINT_EVERY <= to && performance.now() < deadline) {
      const saved = cached;
      stacksAt(last + CHECKPOINT_EVERY);
      cached = saved;
      last += CHECKPOINT_EVERY;
    }
    if (last + CHECKPOINT_EVERY <= to) setTimeout(buildAhead, 0);
  }
  setTimeout(buildAhead, 0);
})();
