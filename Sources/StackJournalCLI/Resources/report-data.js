// The first part of the page's function (see report-delta.js): what every part uses to reach the
// page (`el` writes text through `textContent` only), the data, read and checked (a `return`
// here ends the page's function when the data cannot be read), the stacks at any sequence, and
// the facts the timeline shows per entry.

const CHECKPOINT_EVERY = 256;
const GAP_MS = 1000;

// ---- Reaching the page's elements; text goes in through `textContent`, never as markup.

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

// ---- The data, read and checked.

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
// (`applyChanges`, report-delta.js).

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
