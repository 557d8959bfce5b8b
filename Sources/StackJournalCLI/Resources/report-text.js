// Part of the page's function (see report-delta.js): text helpers, which make the text the other
// parts write with `el`.

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
    if (change[7] === 'presentation') {
      const where = presentedWhere(change[0]);
      if (change[6]) effects.push(['pop', 'dismissed what was presented ' + where]);
      else if (change[3].length > 0) {
        effects.push(['push', 'presented ' + presentedWhat(change[8]) + ' ' + where]);
      } else effects.push(['change', 'changed ' + presentedWhat(change[8]) + ' ' + where]);
      continue;
    }
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
