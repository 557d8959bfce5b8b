// Part of the page's function (see report-delta.js): the header, the session's facts, written
// once.

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
