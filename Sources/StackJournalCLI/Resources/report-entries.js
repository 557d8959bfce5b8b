// Part of the page's function (see report-delta.js): the entry list, one row per entry, drawn
// only where it is visible.

const ROW_HEIGHT = 28;

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
