// Part of the page's function (see report-delta.js): the action type the filter keeps and the
// selected moment, with the steps from one moment the filter keeps to the next.

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
let visible = null; // the sequences listed when filtered; null for all

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
