// The last part of the page's function (see report-delta.js): the buttons, the slider, the filter
// and the keys, the moment the address names, the first moment drawn, and the moments ahead
// rebuilt while the page is idle.

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

// ---- The moment the address names (`#seq=N`), and the first moment drawn.

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
