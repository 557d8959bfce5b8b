// Part of the page's function (see report-delta.js): the moment, drawn again at each selection:
// the action, its effects, and the stacks as decks of cards, nested stacks inside their element.

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

// What a presentation presents, as people read it: `alert "Saved"`, `settings`.
function presentedWhat(presented) {
  if (!presented) return 'destination';
  const title = presented.title === null ? '' : ' ' + JSON.stringify(presented.title);
  if (presented.kind === 'alert') return 'alert' + title;
  if (presented.kind === 'confirmationDialog') return 'confirmation dialog' + title;
  return presented.case === null ? 'destination' : presented.case;
}

// Where it is: over the element its path names last, or at the root.
function presentedWhere(path) {
  const parent = parentOf(path);
  return parent ? 'over #' + parent.id + ' of ' + stackName(parent.path) : 'at the root';
}

// A presented destination: what it presents and where, drawn inside the element it is over.
function presentationView(stack) {
  const box = el('section', 'stack presentation');
  box.dataset.path = stack.path;
  const head = el('div', 'stack-head');
  head.appendChild(el('h3', 'stack-path', 'presented: ' + presentedWhat(stack.presented)));
  head.appendChild(el('span', 'stack-info', presentedWhere(stack.path) + ' · ' + stack.path));
  const change = moment.changes.get(stack.path);
  if (change && change.created) head.appendChild(el('span', 'stack-note', 'presented now'));
  box.appendChild(head);
  const details = el('details');
  details.appendChild(el('summary', null, 'what is presented'));
  details.appendChild(el('pre', null, pretty(stack.presented ? stack.presented.state : null)));
  box.appendChild(details);
  return box;
}

function stackView(stack, sequence) {
  if (stack.kind === 'presentation') return presentationView(stack);
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
        presentation: change[7] === 'presentation',
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
  // The action as a TCA user reads it (the CLI's `ActionDump`), and the JSON it was stored as.
  $('action-dump').textContent = entry ? entry[6] : '';
  $('action-dump').hidden = !entry;
  const payload = entry ? compact(entry[3]) : '';
  $('action-payload').textContent = payload.length <= 100 ? payload : pretty(entry[3]);
  $('action-json').hidden = !entry;

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
      head.appendChild(el('span', 'stack-note', info.presentation ? 'dismissed' : 'stack removed'));
      gone.appendChild(head);
      container.appendChild(gone);
    }
  }

  $('state-json').textContent = JSON.stringify({ sequence: sequence, stacks: stacks });
  drawOverview();
  renderRows();
}
