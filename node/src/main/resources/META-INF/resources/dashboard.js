// god dashboard: the ring (reference §2.3), live /ws events (§2.4), the node table and an API console
// for the JSON contract. Plain JS, no libraries, served by the node.
// script errors are collected for the browser test
window.addEventListener('error', function (e) { (window.__errors = window.__errors || []).push(String(e.message)); });

(function () {
  'use strict';

  // ------------------------------------------------------------------ bytes
  function b64ToBytes(b64) {
    var s = atob(b64), out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  function bytesToB64(bytes) {
    var s = '';
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s);
  }
  function textToB64(t) { return bytesToB64(new TextEncoder().encode(t)); }
  function b64ToText(b64) {
    try { return new TextDecoder('utf-8', { fatal: true }).decode(b64ToBytes(b64)); } catch (e) { return null; }
  }
  function hex(bytes) {
    var s = '';
    for (var i = 0; i < bytes.length; i++) s += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    return s;
  }
  // fraction of the ring (position / 2^128) from big-endian bytes; 48 bits are plenty for a picture
  function ringFraction(b64) {
    if (!b64) return 0;
    var b = b64ToBytes(b64), f = 0, scale = 1 / 256;
    for (var i = 0; i < Math.min(6, b.length); i++) { f += b[i] * scale; scale /= 256; }
    return f;
  }

  // ------------------------------------------------------------------ state
  var nodes = {};       // addr -> {addr, pos, description}
  var routes = [];      // [{Pos, Addr}] from the latest RingChange
  var lines = [];       // live event lines
  var sockets = {};     // addr -> WebSocket (own node under '')
  var selfAddr = null;

  // ------------------------------------------------------------------ ring canvas
  var canvas = document.getElementById('ring');
  var ctx = canvas.getContext('2d');
  var CX = 650, CY = 480, R = 350; // canvas 1300×960: room for labels left and right

  function angle(frac) { return 3 * Math.PI / 2 + 2 * Math.PI * frac; }
  function point(frac, r) {
    var a = angle(frac);
    return { x: CX + (r || R) * Math.cos(a), y: CY + (r || R) * Math.sin(a) };
  }
  var STYLES = { Sync: { rgb: [150, 0, 150], width: 5 }, Clean: { rgb: [50, 150, 0], width: 4 },
    Notify: { rgb: [200, 200, 0], width: 3 }, Ping: { rgb: [200, 0, 200], width: 3 },
    HashTree: { rgb: [200, 0, 0], width: 3 }, Comm: { rgb: [0, 0, 200], width: 3 } };
  function lineStyle(ev) { return STYLES[kind(ev)] || STYLES.Comm; }
  // ------------------------------------------------------------------ which kinds of events are shown
  function kind(ev) {
    if (ev.type !== 'Comm') return ev.type;
    var t = (ev.data && ev.data.type) || '';
    if (t.indexOf('Notify') >= 0) return 'Notify';
    if (t.indexOf('Ping') >= 0) return 'Ping';
    if (t.indexOf('HashTree') >= 0) return 'HashTree';
    return 'Comm';
  }
  var hidden = { Ping: true }; // by default: pings are most of the traffic and say little
  try { hidden = JSON.parse(localStorage.getItem('god.hiddenEvents')) || hidden; } catch (e) { /* keep */ }
  document.querySelectorAll('.legend input[data-kind]').forEach(function (box) {
    var k = box.getAttribute('data-kind');
    box.checked = !hidden[k];
    box.addEventListener('change', function () {
      hidden[k] = !box.checked;
      try { localStorage.setItem('god.hiddenEvents', JSON.stringify(hidden)); } catch (e) { /* private mode */ }
    });
  });
  function addLine(ev) {
    var d = ev.data || {};
    if (!d.source || !d.destination) return;
    if (lines.length >= 100) lines.shift();
    var s = lineStyle(ev);
    lines.push({ from: ringFraction(d.source.Pos), to: ringFraction(d.destination.Pos),
      key: d.key ? ringFraction(d.key) : null, rgb: s.rgb, width: s.width, born: performance.now() });
  }
  function draw() {
    var now = performance.now();
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.lineWidth = 2;
    ctx.strokeStyle = '#888';
    ctx.beginPath(); ctx.arc(CX, CY, R, 0, 2 * Math.PI); ctx.stroke();
    // events: TTL 400 ms, then 300 ms fade
    lines = lines.filter(function (l) { return now - l.born < 700; });
    lines.forEach(function (l) {
      var age = now - l.born, alpha = age < 400 ? 1 : 1 - (age - 400) / 300;
      var a = point(l.from), b = point(l.to);
      ctx.strokeStyle = 'rgba(' + l.rgb.join(',') + ',' + alpha.toFixed(2) + ')';
      ctx.lineWidth = l.width;
      ctx.beginPath(); ctx.moveTo(a.x, a.y);
      if (l.key !== null) { var k = point(l.key); ctx.quadraticCurveTo(k.x, k.y, b.x, b.y); }
      else { ctx.quadraticCurveTo(CX, CY, b.x, b.y); }
      ctx.stroke();
    });
    // nodes
    ctx.font = '18px monospace';
    routes.forEach(function (r) {
      var f = ringFraction(r.Pos), p = point(f), lp = point(f, R + 22);
      ctx.fillStyle = r.Addr === selfAddr ? '#2b6cb0' : '#20232a';
      ctx.beginPath(); ctx.arc(p.x, p.y, 9, 0, 2 * Math.PI); ctx.fill();
      // the full 32-hex position is in the node table; the picture shows its first 8 digits
      var label = hex(b64ToBytes(r.Pos)).slice(0, 8) + '…@' + r.Addr;
      ctx.textAlign = lp.x < CX - 5 ? 'right' : (lp.x > CX + 5 ? 'left' : 'center');
      ctx.fillText(label, lp.x, lp.y + 5);
    });
    requestAnimationFrame(draw);
  }
  requestAnimationFrame(draw);

  // ------------------------------------------------------------------ node table
  function renderNodes() {
    var body = document.querySelector('#nodes tbody');
    body.innerHTML = '';
    routes.forEach(function (r) {
      var n = nodes[r.Addr] || {}, d = n.description || {};
      var tr = document.createElement('tr');
      [r.Addr, hex(b64ToBytes(r.Pos)), d.OwnedEntries, d.HeldEntries,
        d.Load === undefined ? undefined : Number(d.Load).toPrecision(3)].forEach(function (v, i) {
        var td = document.createElement('td');
        td.textContent = v === undefined ? '–' : String(v);
        if (i === 1) td.className = 'pos';
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }

  // ------------------------------------------------------------------ events
  var eventList = document.getElementById('events');
  function logEvent(ev) {
    var d = ev.data || {}, li = document.createElement('li');
    var text = ev.type;
    if (d.source && d.destination) text += ' ' + d.source.Addr + ' → ' + d.destination.Addr;
    if (ev.type === 'Comm') text += ' ' + d.type + (d.key ? ' ' + (b64ToText(d.key) || d.key) : '');
    if (ev.type === 'Sync') text += ' pulled ' + d.pulled + ' pushed ' + d.pushed;
    if (ev.type === 'Clean') text += ' cleaned ' + d.cleaned + ' pushed ' + d.pushed;
    li.textContent = new Date().toLocaleTimeString() + ' ' + text;
    eventList.insertBefore(li, eventList.firstChild);
    while (eventList.children.length > 50) eventList.removeChild(eventList.lastChild);
  }
  function onEvent(ev, own) {
    if (ev.type === 'RingChange') {
      var d = ev.data.description;
      nodes[d.Addr] = { description: d };
      if (own) {
        selfAddr = d.Addr;
        routes = (ev.data.routes || []).slice();
        routes.forEach(function (r) { if (r.Addr !== selfAddr) connect(r.Addr); });
      }
      renderNodes();
    } else if (!hidden[kind(ev)]) {
      addLine(ev);
      logEvent(ev);
    }
  }
  function connect(addr) {
    if (sockets[addr !== undefined ? addr : ''] !== undefined) return;
    var own = addr === undefined, url;
    if (own) {
      url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
    } else {
      // relayed by the page's node (it asks the peer where it serves HTTP): whatever the peer's
      // ports, and through a port-forward of this one node
      url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws/peer?addr='
        + encodeURIComponent(addr);
    }
    var key = own ? '' : addr, ws;
    try { ws = new WebSocket(url); } catch (e) { sockets[key] = null; return; }
    sockets[key] = ws;
    ws.onmessage = function (m) { try { onEvent(JSON.parse(m.data), own); } catch (e) { /* ignore */ } };
    var opened = false;
    ws.onopen = function () { opened = true; if (own) setStatus('live', true); };
    ws.onclose = function () {
      // a browser hides why an upgrade failed: a plain GET of /ws answers 401 when the credential is missing
      if (own && !opened) {
        fetch('/ws').then(function (r) { if (r.status === 401) refused(); });
      }
      if (own) {
        setStatus('disconnected — retrying', false);
        delete sockets[''];
        setTimeout(function () { connect(); }, 2000);
      } else {
        delete nodes[addr];
        renderNodes();
        sockets[addr] = null; // the next RingChange after 5 s connects again, if addr is still a member
        setTimeout(function () { delete sockets[addr]; }, 5000);
      }
    };
  }
  function setStatus(text, ok) {
    var s = document.getElementById('status');
    s.textContent = text;
    s.className = 'status' + (ok ? ' ok' : '');
  }
  // ------------------------------------------------------------------ login (issue 32)
  // a browser cannot set Authorization on a WebSocket: POST /api/login turns the token into the god_token cookie
  // (HttpOnly, SameSite=Strict), which the node reads wherever the header is missing
  var login = document.getElementById('login');
  function refused() {
    sessionStorage.removeItem('god-logged-in');
    login.hidden = false;
    document.getElementById('logout').hidden = true;
  }
  document.getElementById('logout').hidden = !sessionStorage.getItem('god-logged-in');
  login.addEventListener('submit', function (e) {
    e.preventDefault();
    var msg = document.getElementById('login-error');
    fetch('/api/login', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: document.getElementById('login-token').value }) })
      .then(function (r) {
        if (r.status === 204) {
          sessionStorage.setItem('god-logged-in', '1');
          location.reload(); // every view (ring, events, peers) starts again with the cookie
        } else {
          return r.json().then(function (j) { msg.textContent = j.error || ('login → ' + r.status); });
        }
      })
      .catch(function (err) { msg.textContent = 'login failed: ' + err; });
  });
  document.getElementById('logout').addEventListener('click', function () {
    fetch('/api/logout', { method: 'POST' }).then(function () {
      sessionStorage.removeItem('god-logged-in');
      location.reload();
    });
  });
  connect();

  // ------------------------------------------------------------------ API console
  var methods = {};
  var select = document.getElementById('method');
  var body = document.getElementById('body');
  function example(name) {
    var p = (methods[name] || {}).parameter || {}, out = {};
    Object.keys(p).forEach(function (f) {
      var t = p[f];
      if (t === '[]byte') out[f] = textToB64(f === 'Value' ? 'some value' : (f === 'Key' || f === 'TreeKey') ? 'some key' : 'some ' + f.toLowerCase());
      else if (t === 'int') out[f] = 0;
      else if (t === 'bool') out[f] = false;
      else out[f] = f === 'Code' ? '(U a b)' : '';
    });
    return JSON.stringify(out, null, 2);
  }
  select.addEventListener('change', function () { body.value = example(select.value); });
  fetch('/api/methods').then(function (r) { return r.json(); }).then(function (m) {
    methods = m;
    Object.keys(m).sort().forEach(function (name) {
      var o = document.createElement('option');
      o.value = name; o.textContent = 'DHash.' + name + (m[name].mutating ? ' (write)' : '');
      select.appendChild(o);
    });
    select.value = 'Get';
    body.value = example('Get');
    document.body.setAttribute('data-methods-loaded', 'true');
  });
  document.getElementById('b64-encode').addEventListener('click', function () {
    document.getElementById('b64-out').value = textToB64(document.getElementById('b64-text').value);
  });
  document.getElementById('b64-decode').addEventListener('click', function () {
    var t = null;
    try { t = b64ToText(document.getElementById('b64-text').value.trim()); } catch (e) { t = null; }
    document.getElementById('b64-out').value = t === null ? '(not base64 of UTF-8 text)' : t;
  });
  // decoded view: every string that is base64 of UTF-8 text is shown as that text
  function decode(v) {
    if (Array.isArray(v)) return v.map(decode);
    if (v && typeof v === 'object') {
      var o = {};
      Object.keys(v).forEach(function (k) { o[k] = decode(v[k]); });
      return o;
    }
    if (typeof v === 'string' && v.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(v)) {
      var t = b64ToText(v);
      if (t !== null && !/[\u0000-\u0008\u000e-\u001f]/.test(t)) return t;
    }
    return v;
  }
  var calls = 0;
  document.getElementById('execute').addEventListener('click', function () {
    var name = select.value, status = document.getElementById('result-status');
    var headers = { 'Content-Type': 'application/json; charset=UTF-8' };
    var token = document.getElementById('token').value;
    if (token) headers.Authorization = 'Bearer ' + token;
    status.textContent = 'DHash.' + name + '…';
    status.className = '';
    fetch('/rpc/DHash.' + name, { method: 'POST', headers: headers, body: body.value })
      .then(function (r) { return r.text().then(function (t) { return { code: r.status, text: t }; }); })
      .then(function (r) {
        var parsed;
        try { parsed = JSON.parse(r.text); } catch (e) { parsed = r.text; }
        document.getElementById('result').textContent = JSON.stringify(parsed, null, 2);
        document.getElementById('decoded').textContent = JSON.stringify(decode(parsed), null, 2);
        if (r.code === 401 && !token) refused();
        status.textContent = 'DHash.' + name + ' → ' + r.code;
        status.className = r.code === 200 ? '' : 'error';
        document.body.setAttribute('data-calls', String(++calls));
      })
      .catch(function (e) {
        status.textContent = 'DHash.' + name + ' failed: ' + e;
        status.className = 'error';
        document.body.setAttribute('data-calls', String(++calls));
      });
  });
})();
