// The Control UI (SPEC OP-3, OP-8, CH-0, OUT-8): reads the control API under /api/ with the gateway token in the
// Authorization header (never a cookie), builds every element with textContent (no HTML from data), no build step.
(() => {
  'use strict';
  const TOKEN_KEY = 'clawgate.control.token';
  const $ = id => document.getElementById(id);
  const token = () => localStorage.getItem(TOKEN_KEY);
  const shown = {};
  let previous = null;
  let turnsSession = null;
  let timer = null;

  class Refused extends Error {}

  async function api(path, method = 'GET') {
    const headers = {};
    if (token()) headers.Authorization = 'Bearer ' + token();
    const init = { method, headers, cache: 'no-store', credentials: 'omit' };
    if (method !== 'GET') {
      headers['Content-Type'] = 'application/json';
      init.body = '{}';
    }
    const r = await fetch(path, init);
    if (r.status === 401) throw new Refused('the gateway refused the token');
    const type = r.headers.get('content-type') || '';
    const body = type.includes('json') ? await r.json() : await r.text();
    if (!r.ok) throw new Error((body && body.error && body.error.message) || ('HTTP ' + r.status));
    return body;
  }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'onclick') e.addEventListener('click', v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  /** Replaces a table body's rows, only when what it shows changed (so a row under the pointer stays put). */
  function fill(id, rows, key) {
    const json = JSON.stringify(key);
    if (shown[id] === json) return;
    shown[id] = json;
    const body = $(id).tagName === 'TABLE' ? $(id).tBodies[0] : $(id);
    body.replaceChildren(...rows);
  }

  const time = iso => iso ? new Date(iso).toLocaleString() : '';
  const ms = v => v === null || v === undefined ? '–' : (v < 10 ? v.toFixed(2) : v.toFixed(0)) + ' ms';
  function uptime(s) {
    const d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60;
    return 'up ' + (d ? d + 'd ' : '') + (d || h ? h + 'h ' : '') + m + 'm ' + (s % 60) + 's';
  }
  const badge = (ok, text) => el('span', { class: 'badge ' + (ok ? 'ok' : 'bad') }, text);

  function setStatus(state, text) {
    $('status').dataset.state = state;
    $('status').textContent = text;
  }

  /** Prometheus text: the sum of one metric's samples whose labels include every pair of `match`. */
  function metric(text, name, match) {
    let sum = 0;
    for (const line of text.split('\n')) {
      if (!line.startsWith(name)) continue;
      const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
      if (!m || m[1] !== name) continue;
      if (match && !Object.entries(match).every(([k, v]) => (m[2] || '').includes(k + '="' + v + '"'))) continue;
      const v = parseFloat(m[3]);
      if (!Number.isNaN(v)) sum += v;
    }
    return sum;
  }

  async function refreshStatus() {
    const s = await api('/api/status');
    let metrics = '';
    try { metrics = await api('/metrics'); } catch (e) { if (e instanceof Refused) throw e; }
    setStatus(s.healthy ? 'ok' : 'degraded', s.healthy ? 'healthy' : 'degraded');
    $('version').textContent = 'v' + s.version;
    $('uptime').textContent = uptime(s.uptime_seconds);
    const now = performance.now();
    const sample = {
      at: now,
      turns: s.queues.runs_started,
      sent: metric(metrics, 'clawgate_outbox_recorded_total', { state: 'sent' }),
      model: metric(metrics, 'clawgate_model_attempts_total'),
    };
    if (previous && now > previous.at) {
      const dt = (now - previous.at) / 1000;
      $('c-turns-rate').textContent = ((sample.turns - previous.turns) / dt).toFixed(1);
      $('c-sent-rate').textContent = ((sample.sent - previous.sent) / dt).toFixed(1);
      $('c-model-rate').textContent = ((sample.model - previous.model) / dt).toFixed(1);
    }
    previous = sample;
    $('c-bus').textContent = s.queues.bus;
    $('c-active').textContent = s.queues.active_runs;
    $('c-inbox').textContent = (s.inbox.received || 0) + (s.inbox.dispatched || 0);
    $('c-latency').textContent = ms(s.model.latency_ms);
    $('c-pending').textContent = (s.outbox.pending || 0) + (s.outbox.sending || 0);
    $('c-attention').textContent = (s.outbox.failed || 0) + (s.outbox.partial_failed || 0)
      + (s.outbox.unknown_after_send || 0) + (s.outbox.expired || 0);
    const rows = [];
    for (const c of s.channels) {
      for (const a of c.accounts) {
        rows.push(el('tr', { 'data-channel': c.name, 'data-account': a.id, 'data-healthy': String(c.healthy && a.healthy) },
          el('td', {}, c.name), el('td', {}, a.id),
          el('td', {}, badge(c.healthy && a.healthy, c.healthy && a.healthy ? 'healthy' : (c.running ? 'unhealthy' : 'stopped'))),
          el('td', { class: 'detail' }, a.healthy ? c.detail : a.detail),
          el('td', { class: 'last-error' }, a.last_error || c.last_error
            ? (a.last_error || c.last_error) + ' (' + time(a.last_error_at || c.last_error_at) + ')' : 'none')));
      }
    }
    fill('channels', rows, s.channels.map(c => [c.name, c.healthy, c.detail, c.last_error,
      c.accounts.map(a => [a.id, a.healthy, a.detail, a.last_error])]));
  }

  async function refreshTurns() {
    const q = turnsSession ? '?session=' + encodeURIComponent(turnsSession.id) + '&limit=100' : '?limit=50';
    const t = await api('/api/turns' + q);
    $('turns-filter').replaceChildren();
    if (turnsSession) {
      $('turns-filter').append('of ' + turnsSession.display + ' · ',
        el('a', { href: '#', onclick: ev => { ev.preventDefault(); turnsSession = null; refreshTurns(); } }, 'all'));
    }
    const open = $('timeline').dataset.turnId;
    const rows = t.turns.map(x => el('tr', { class: 'clickable' + (String(x.id) === open ? ' selected' : ''),
      'data-turn-id': x.id, 'data-outcome': x.outcome,
      onclick: () => showTimeline(x.id) },
    el('td', {}, x.id), el('td', {}, time(x.started_at)), el('td', {}, x.session), el('td', {}, x.outcome),
    el('td', {}, ms(x.duration_ms)), el('td', {}, x.preview)));
    if (!rows.length) rows.push(el('tr', {}, el('td', { colspan: 6, class: 'muted' }, 'No turns recorded yet.')));
    fill('turns', rows, [turnsSession && turnsSession.id, t.turns]);
  }

  async function showTimeline(id) {
    const t = await api('/api/turns/' + encodeURIComponent(id));
    for (const r of $('turns').tBodies[0].rows) r.classList.toggle('selected', r.dataset.turnId === String(id));
    const total = Math.max(t.duration_ms, ...t.phases.map(p => p.start_ms + p.duration_ms), 0.001);
    $('timeline-title').hidden = false;
    $('timeline-title').textContent = 'Timeline of turn ' + t.id + ' · ' + t.outcome + ' · ' + ms(t.duration_ms)
      + ' · ' + t.session;
    $('timeline').dataset.turnId = t.id;
    $('timeline').replaceChildren(...t.phases.map(p => {
      const bar = el('div', { class: 'bar' });
      bar.style.marginLeft = (100 * p.start_ms / total) + '%';
      bar.style.width = Math.max(0.5, 100 * p.duration_ms / total) + '%';
      const detail = JSON.stringify(p.detail);
      return el('li', { class: 'phase', 'data-name': p.name, 'data-duration-ms': p.duration_ms },
        el('span', { class: 'name' }, p.name), el('span', { class: 'duration' }, ms(p.duration_ms)),
        el('div', {}, bar), detail && detail !== '{}' ? el('div', { class: 'detail' }, detail) : null);
    }));
  }

  async function refreshOutbox() {
    const state = $('outbox-state').value;
    const o = await api('/api/outbox' + (state ? '?state=' + encodeURIComponent(state) : ''));
    $('outbox-counts').textContent = Object.entries(o.counts).filter(([, n]) => n > 0)
      .map(([k, n]) => k + ' ' + n).join(' · ');
    const rows = o.entries.map(e => el('tr', { 'data-outbox-id': e.id, 'data-state': e.state },
      el('td', {}, e.id),
      el('td', {}, el('span', { class: 'badge ' + (e.state === 'sent' ? 'ok' : e.resendable ? 'bad' : 'warn') }, e.state)),
      el('td', {}, e.turn_id), el('td', {}, e.channel + ' ' + e.to), el('td', {}, time(e.updated_at)),
      el('td', { class: 'reason' }, e.reason || ''),
      el('td', {}, e.resendable ? el('button', { class: 'resend', onclick: () => resend(e.id) }, 'Resend') : null)));
    if (!rows.length) rows.push(el('tr', {}, el('td', { colspan: 7, class: 'muted' }, 'No entries in these states.')));
    fill('outbox', rows, [state, o.entries]);
  }

  async function resend(id) {
    try {
      const e = await api('/api/outbox/' + id + '/resend', 'POST');
      note('outbox-message', 'Entry ' + id + ' is ' + e.state + ' again; the gateway sends it within seconds.');
    } catch (err) {
      note('outbox-message', 'Resend of ' + id + ' failed: ' + err.message);
    }
    refreshOutbox();
  }

  async function refreshPairing() {
    const p = await api('/api/pairing');
    const rows = p.pairings.map(x => el('tr', { 'data-code': x.code },
      el('td', {}, el('code', {}, x.code)), el('td', {}, x.channel + (x.account !== 'default' ? '.' + x.account : '')),
      el('td', {}, x.sender), el('td', {}, time(x.expires_at)),
      el('td', {}, el('button', { class: 'approve', onclick: () => decide(x.code, 'approve') }, 'Approve'), ' ',
        el('button', { class: 'reject', onclick: () => decide(x.code, 'reject') }, 'Reject'))));
    if (!rows.length) rows.push(el('tr', {}, el('td', { colspan: 5, class: 'muted' }, 'No pending requests.')));
    fill('pairing', rows, p.pairings);
  }

  async function decide(code, what) {
    try {
      const p = await api('/api/pairing/' + encodeURIComponent(code) + '/' + what, 'POST');
      note('pairing-message', p.sender + ' on ' + p.channel + ': ' + p.status + '.');
    } catch (err) {
      note('pairing-message', 'Could not ' + what + ' ' + code + ': ' + err.message);
    }
    refreshPairing();
  }

  function note(id, text) {
    $(id).hidden = false;
    $(id).textContent = text;
  }

  async function searchSessions() {
    const q = $('session-q').value.trim();
    const s = await api('/api/sessions?limit=50' + (q ? '&q=' + encodeURIComponent(q) : ''));
    const selected = $('sessions').querySelector('li.selected');
    const rows = s.sessions.map(x => el('li', { 'data-session-id': x.id,
      class: selected && selected.dataset.sessionId === x.id ? 'selected' : null,
      onclick: () => openSession(x) }, x.display + ' ', el('small', {}, x.messages + ' messages · ' + time(x.last_activity))));
    if (!rows.length) rows.push(el('li', { class: 'muted' }, 'No sessions.'));
    fill('sessions', rows, [q, s.sessions]);
  }

  async function openSession(s) {
    for (const li of $('sessions').children) li.classList.toggle('selected', li.dataset.sessionId === s.id);
    const t = await api('/api/sessions/' + encodeURIComponent(s.id) + '/transcript?limit=200');
    $('transcript-title').hidden = false;
    $('transcript-title').textContent = 'Transcript of ' + s.display;
    $('transcript').replaceChildren(...t.messages.map(m => el('li', { class: m.role },
      m.turn_id && m.role === 'user' ? el('button', { onclick: () => timelineOfInbox(m.turn_id) }, 'timeline') : null,
      el('small', {}, m.role + ' · ' + time(m.created_at)), '\n', m.content)));
    turnsSession = s;
    refreshTurns();
  }

  async function timelineOfInbox(inboxId) {
    const t = await api('/api/turns?inbox=' + encodeURIComponent(inboxId));
    if (t.turns.length) showTimeline(t.turns[0].id);
  }

  async function searchMemory() {
    const q = $('memory-q').value.trim();
    if (!q) return;
    const m = await api('/api/memory/search?q=' + encodeURIComponent(q));
    $('memory-note').textContent = m.results.length + ' found; memory.min_relevance is ' + m.min_relevance
      + ' (entries below it are not put in a prompt).';
    $('memory').tBodies[0].replaceChildren(...m.results.map(r => el('tr', { class: r.above_min_relevance ? '' : 'muted' },
      el('td', {}, r.score.toFixed(3)), el('td', {}, r.key), el('td', {}, r.scope), el('td', {}, r.content))));
  }

  function askForToken(reason) {
    clearInterval(timer);
    timer = null;
    setStatus('refused', 'token needed');
    $('panes').hidden = true;
    $('token-form').hidden = false;
    $('token-error').hidden = !reason;
    $('token-error').textContent = reason || '';
    $('token-input').focus();
  }

  async function tick() {
    try {
      await refreshStatus();
      await Promise.all([refreshTurns(), refreshOutbox(), refreshPairing(), searchSessions()]);
    } catch (e) {
      if (e instanceof Refused) return askForToken(token() ? 'The saved token was refused.' : '');
      setStatus('down', 'no answer: ' + e.message);
    }
  }

  async function open() {
    try {
      await refreshStatus();
    } catch (e) {
      if (e instanceof Refused) return askForToken(token() ? 'The saved token was refused.' : '');
      setStatus('down', 'no answer: ' + e.message);
    }
    $('token-form').hidden = true;
    $('panes').hidden = false;
    $('forget-token').hidden = !token();
    await tick();
    if (!timer) timer = setInterval(tick, 2000);
  }

  const guard = fn => ev => { ev.preventDefault(); fn().catch(e => setStatus('down', e.message)); };
  $('token-form').addEventListener('submit', ev => {
    ev.preventDefault();
    const t = $('token-input').value.trim();
    if (!t) return;
    localStorage.setItem(TOKEN_KEY, t);
    $('token-input').value = '';
    open();
  });
  $('forget-token').addEventListener('click', ev => {
    ev.preventDefault();
    localStorage.removeItem(TOKEN_KEY);
    askForToken('');
  });
  $('session-search').addEventListener('submit', guard(searchSessions));
  $('memory-search').addEventListener('submit', guard(searchMemory));
  $('outbox-state').addEventListener('change', () => refreshOutbox().catch(e => setStatus('down', e.message)));
  open();
})();
