// Clawgate web chat (SPEC CH-2): one conversation per browser, over a WebSocket.
'use strict';
(() => {
  const BASE = '/chat';
  const CLIENT_KEY = 'clawgate.webchat.client';
  const TOKEN_KEY = 'clawgate.webchat.token';
  const MAX_CHARS = 100000; // the gateway's inbound limit; a longer message stays in the box
  const $ = id => document.getElementById(id);
  const messages = $('messages');
  const input = $('input');
  const sendButton = $('send');
  const status = $('status');
  const replies = new Map(); // message id -> { el, streamed, finals }
  let socket = null;
  let opened = false;
  let retries = 0;

  // SPEC HI-1: the client id is the sender, kept so a reload continues the same session.
  function clientId() {
    let id = localStorage.getItem(CLIENT_KEY);
    if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
      // getRandomValues works on plain http too, where randomUUID does not
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      id = 'c' + Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');
      localStorage.setItem(CLIENT_KEY, id);
    }
    return id;
  }

  const client = clientId();
  $('client-id').textContent = client;

  const token = () => localStorage.getItem(TOKEN_KEY);

  function setStatus(state, text) {
    status.dataset.state = state;
    status.textContent = text;
  }

  function enable(on) {
    input.disabled = !on;
    sendButton.disabled = !on;
  }

  function append(el) {
    messages.appendChild(el);
    messages.scrollTop = messages.scrollHeight;
    return el;
  }

  // Text only, never markup: replies are shown with textContent.
  function bubble(role, text) {
    const el = document.createElement('div');
    el.className = 'msg ' + role;
    el.textContent = text;
    return append(el);
  }

  function line(kind, text) {
    const el = document.createElement('div');
    el.className = kind;
    el.textContent = text;
    return append(el);
  }

  function reply(id) {
    let r = replies.get(id);
    if (!r) {
      const el = bubble('assistant', '');
      el.dataset.replyTo = id;
      el.dataset.state = 'pending';
      r = { el, streamed: '', finals: 0 };
      replies.set(id, r);
    }
    return r;
  }

  function render(history) {
    messages.replaceChildren();
    replies.clear();
    for (const m of history) {
      bubble(m.role === 'user' ? 'user' : 'assistant', m.text).dataset.state = 'done';
    }
  }

  async function start() {
    setStatus('connecting', 'connecting…');
    let res;
    try {
      const headers = token() ? { Authorization: 'Bearer ' + token() } : {};
      res = await fetch(BASE + '/history?client=' + encodeURIComponent(client), { headers, cache: 'no-store' });
    } catch (e) {
      setStatus('disconnected', 'gateway unreachable; retrying…');
      return later();
    }
    if (res.status === 401) {
      return askForToken(token() ? 'The saved token was refused.' : '');
    }
    if (!res.ok) {
      setStatus('disconnected', 'history unavailable (' + res.status + '); retrying…');
      return later();
    }
    render((await res.json()).messages);
    connect();
  }

  function later() {
    setTimeout(start, Math.min(10000, 500 * 2 ** retries++));
  }

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
    let url = scheme + location.host + BASE + '/ws?client=' + encodeURIComponent(client);
    if (token()) url += '&token=' + encodeURIComponent(token());
    opened = false;
    socket = new WebSocket(url);
    socket.onopen = () => {
      opened = true;
      retries = 0;
      setStatus('connected', 'connected');
      enable(true);
      input.focus();
    };
    socket.onmessage = ev => {
      try {
        frame(JSON.parse(ev.data));
      } catch (e) {
        line('error', 'unreadable frame from the gateway');
      }
    };
    socket.onclose = ev => {
      socket = null;
      enable(false);
      if (ev.code === 1008) return askForToken(ev.reason);
      // SPEC OP-10: a message over gateway.max_body_bytes closes the socket; say so before reconnecting
      if (ev.code === 1009) {
        line('error', 'That message is too large for the gateway; it was not sent. Send a shorter one.');
      }
      // a refused upgrade closes without opening; start() asks the history, which says why
      setStatus('disconnected', opened ? 'disconnected; reconnecting…' : 'could not connect; retrying…');
      later();
    };
  }

  function frame(f) {
    switch (f.type) {
      case 'delta': {
        const r = reply(f.id);
        if (r.finals) break;
        r.streamed += f.text;
        r.el.textContent = r.streamed;
        r.el.dataset.state = 'streaming';
        break;
      }
      case 'draft':
      case 'edit': {
        // SPEC OUT-9: the live preview carries the whole text so far (a draft before any text shows ...);
        // RP-4 reasoning rides along under /reasoning stream
        const r = reply(f.id);
        if (r.finals) break;
        r.streamed = f.text;
        const shown = (f.reasoning ? '💭 ' + f.reasoning + (f.text ? '\n\n' : '') : '') + f.text;
        r.el.textContent = shown || '...';
        r.el.dataset.state = shown ? 'streaming' : 'draft';
        r.el.dataset.messageId = f.messageId;
        break;
      }
      case 'final': {
        // the final text is authoritative: it replaces what was streamed; a long reply may come in parts
        const r = reply(f.id);
        r.el.textContent = r.finals ? r.el.textContent + '\n\n' + f.text : f.text;
        r.finals++;
        r.el.dataset.state = 'final';
        break;
      }
      case 'notice':
        line('notice', f.text);
        break;
      case 'error': {
        const r = f.id && replies.get(f.id);
        if (r && !r.finals) {
          r.el.classList.add('error');
          r.el.textContent = f.text;
          r.el.dataset.state = 'error';
        } else {
          line('error', f.text);
        }
        break;
      }
      case 'done': {
        const r = replies.get(f.id);
        if (!r) break;
        // a draft no reply replaced (a cancelled run) goes when it showed nothing but its placeholder
        if (!r.el.textContent || (!r.finals && r.el.dataset.state === 'draft')) r.el.remove();
        else if (r.el.dataset.state !== 'error') r.el.dataset.state = 'done';
        replies.delete(f.id);
        break;
      }
    }
    messages.scrollTop = messages.scrollHeight;
  }

  function submit() {
    const text = input.value;
    if (!text.trim() || !socket || socket.readyState !== WebSocket.OPEN) return;
    if (text.length > MAX_CHARS) {
      line('error', 'The message is ' + text.length + ' characters; the limit is ' + MAX_CHARS + '. Nothing was sent.');
      return;
    }
    const id = 'm' + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
    socket.send(JSON.stringify({ type: 'message', id, text }));
    bubble('user', text).dataset.id = id;
    reply(id);
    input.value = '';
  }

  function askForToken(reason) {
    setStatus('refused', 'token needed');
    enable(false);
    $('token-form').hidden = false;
    $('token-error').hidden = !reason;
    $('token-error').textContent = reason || '';
    $('token-input').focus();
  }

  $('composer').addEventListener('submit', ev => {
    ev.preventDefault();
    submit();
  });
  input.addEventListener('keydown', ev => {
    if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      submit();
    }
  });
  $('token-form').addEventListener('submit', ev => {
    ev.preventDefault();
    const t = $('token-input').value.trim();
    if (!t) return;
    localStorage.setItem(TOKEN_KEY, t);
    $('token-input').value = '';
    $('token-form').hidden = true;
    $('forget-token').hidden = false;
    retries = 0;
    start();
  });
  $('forget-token').hidden = !token();
  $('forget-token').addEventListener('click', ev => {
    ev.preventDefault();
    localStorage.removeItem(TOKEN_KEY);
    location.reload();
  });

  start();
})();
