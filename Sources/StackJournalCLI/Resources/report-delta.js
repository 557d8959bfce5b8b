'use strict';
// The time-travel page of `stackjournal report`. Everything it shows comes from the JSON block
// `journal-data`, which the command wrote from the journal: the stacks at the first moment (as
// `show --at` rebuilds them, presented destinations among them) and each entry's stack delta.
// The page applies the deltas in order; every text from the journal reaches the page through
// `textContent`, never as markup.
//
// The script is written in parts, one file each, that `ReportAssets` (Output/ReportPage.swift)
// joins in the order it lists into the one script the page carries: this file at the top level,
// then the others as the body of one function, the page's, whose names they all share.

// Applies one entry's changes to stacks (sorted by path) and returns new stacks; the stacks
// given are not modified, so earlier moments stay valid. Throws when a change does not fit. The
// rules are those of `StackChange.fit` in Swift; the cases of
// `Tests/Fixtures/stack-delta-corpus.json` check that this function follows them too. Declared
// outside the page's function, so a test can call it on a page holding nothing but the script.
function applyChanges(stacks, changes) {
  const result = stacks.slice();
  for (const change of changes) {
    const [path, nextID, ids, pushed, popped, changed, removed, kind, presented] = change;
    const index = result.findIndex((stack) => stack.path === path);
    const isPresentation = kind === 'presentation';
    const where = 'the change to the ' + (isPresentation ? 'presentation ' : 'stack ')
      + JSON.stringify(path);
    // A presentation's change meets a presentation or nothing, a stack's a stack or nothing;
    // a presentation holds #0 alone, with next ID 1.
    if (index >= 0 && (result[index].kind === 'presentation') !== isPresentation) {
      throw new Error(where + (isPresentation
        ? ' changes it as a presentation, but it is a stack'
        : ' changes it as a stack, but it is a presentation'));
    }
    if (isPresentation && !removed && (nextID !== 1 || ids.length !== 1 || ids[0] !== 0)) {
      throw new Error(where + ' leaves it holding ' + JSON.stringify(ids) + ' with next ID #'
        + nextID + ', not #0 alone with next ID 1');
    }
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
    if (isPresentation) {
      stack.presented = presented || (index >= 0 ? result[index].presented : null);
    }
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
