// Part of the page's function (see report-delta.js): the overview, the stack depth over the
// session, what each entry did and the pauses in time, where the pointer moves the selection.

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
