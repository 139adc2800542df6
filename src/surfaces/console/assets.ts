/**
 * The console's two static files, served by the console itself (no CDN, no font, no bundler): the
 * pages read and work without them; the script only adds copy buttons, confirmations and the live
 * rows of the Requests page.
 */

export const CONSOLE_CSS = `:root{--fg:#1a1a1a;--muted:#595959;--bg:#fff;--line:#d0d0d0;--accent:#0b57d0;--ok:#0f6a2f;--ok-bg:#e3f4e8;--bad:#a3161a;--bad-bg:#fbe5e5;--warn:#7a4d00;--warn-bg:#fdf0d5;--code-bg:#f3f4f6}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:#fff;padding:.25rem .5rem;z-index:2}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;padding:.5rem 1.25rem;background:#15202b;color:#fff}
.top a{color:#fff;text-decoration:none;padding:.25rem .5rem;border-radius:4px}
.top a[aria-current=page]{background:#fff;color:#15202b;font-weight:600}
.top a:hover{text-decoration:underline}
.top ul{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;margin:0;padding:0}
.top .muted{color:#c9d1d9}
.brand{font-weight:700}
.top form{margin-left:auto}
main{padding:1rem 1.25rem 3rem;max-width:1400px}
h1{margin:.25rem 0 1rem;font-size:1.6rem}
h2{margin:1.75rem 0 .5rem;font-size:1.25rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
h3{font-size:1.05rem;margin:1rem 0 .4rem}
h4{font-size:.95rem;margin:.75rem 0 .25rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
thead th{background:#f6f7f9;font-weight:600}
code{background:var(--code-bg);padding:0 .25em;border-radius:3px;font-size:.9em;word-break:break-all}
pre{background:var(--code-bg);padding:.6rem .75rem;border-radius:4px;overflow:auto;max-height:28rem;font-size:.85em;white-space:pre-wrap;word-break:break-all}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:0 .45em;border-radius:999px;font-size:.82em;font-weight:600;border:1px solid currentColor}
.badge.ok{color:var(--ok);background:var(--ok-bg)}.badge.bad{color:var(--bad);background:var(--bad-bg)}.badge.warn{color:var(--warn);background:var(--warn-bg)}
button{font:inherit;padding:.3rem .8rem;border:1px solid #4b5563;border-radius:4px;background:#f9fafb;color:var(--fg);cursor:pointer}
button:hover{background:#eef0f3}
.top button{background:transparent;color:#fff;border-color:#9aa4ae}
input,select{font:inherit;padding:.25rem .4rem;border:1px solid #6b7280;border-radius:4px;background:#fff;color:var(--fg)}
form.inline{display:inline-block;margin:0 .25rem .25rem 0}
.row{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:.5rem 0}
.filters{display:flex;flex-wrap:wrap;align-items:flex-end;gap:.75rem;margin:.5rem 0 1rem}
.filters label,.stack label{display:block;font-size:.85em;font-weight:600}
.stack{display:flex;flex-direction:column;gap:.5rem;max-width:24rem}
.notice{background:var(--ok-bg);color:var(--ok);padding:.5rem .75rem;border-radius:4px}
.error{background:var(--bad-bg);color:var(--bad);padding:.5rem .75rem;border-radius:4px}
.counts{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.5rem;margin:0}
.counts div{border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem}
.counts dt{font-size:.85em;color:var(--muted)}.counts dd{margin:0;font-size:1.4rem;font-weight:600}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:.25rem 1rem;margin:.5rem 0}
.facts dt{font-size:.8em;color:var(--muted)}.facts dd{margin:0}
.big{font-size:1.2rem;font-weight:600}
.plain{list-style:none;margin:0;padding:0}
.coverage{max-height:16rem;overflow:auto}
.logo{vertical-align:middle;border-radius:4px}.logo-none{display:inline-block;width:24px}
.pager{display:flex;gap:1rem;align-items:center;margin:.5rem 0}
.delivery{border:1px solid var(--line);border-radius:6px;padding:.25rem .9rem .75rem;margin:.75rem 0}
.sample{margin-bottom:1rem}
tr.faulted{background:#fff7ed}
tr.fresh{animation:fresh 2s ease-out}
@keyframes fresh{from{background:#fff3bf}to{background:transparent}}
td.path{max-width:40rem}
.track{position:relative;width:12rem;height:.8rem;background:#f1f1f1;border-radius:3px}
.bar{display:block;height:100%;border-radius:3px;background:#6b7280}
.bar.success{background:#1f8a4c}.bar.error{background:#c0262d}
@media (prefers-reduced-motion:reduce){tr.fresh{animation:none}}
`;

export const CONSOLE_JS = `(() => {
  'use strict';
  // Copy buttons: hidden in the HTML, shown once this script can make them work.
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const target = document.getElementById(button.dataset.copy);
      if (!target) return;
      try {
        await navigator.clipboard.writeText(target.textContent.trim());
        button.textContent = 'Copied';
      } catch {
        const range = document.createRange();
        range.selectNodeContents(target);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        button.textContent = 'Selected';
      }
      setTimeout(() => { button.textContent = 'Copy'; }, 1500);
    });
  }

  // Changes that cannot be undone ask first.
  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }

  // The Requests page: rows newer than the newest shown, asked for once a second.
  const table = document.querySelector('table[data-live]');
  if (!table) return;
  const body = table.tBodies[0];
  const toggle = document.getElementById('live-toggle');
  const status = document.getElementById('live-status');
  const MAX_ROWS = 500;
  let on = true;
  let timer;
  const schedule = () => { clearTimeout(timer); if (on) timer = setTimeout(poll, 1000); };
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener('click', () => {
      on = !on;
      toggle.setAttribute('aria-pressed', String(on));
      toggle.textContent = 'Live updates: ' + (on ? 'on' : 'off');
      schedule();
    });
  }
  async function poll() {
    try {
      const url = new URL(table.dataset.live, window.location.href);
      url.searchParams.set('after', table.dataset.after || '0');
      const res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (!res.ok) {
        if (status) status.textContent = 'Live updates stopped: the sandbox answered ' + res.status;
        return;
      }
      const newest = res.headers.get('x-console-newest');
      const rows = (await res.text()).trim();
      if (rows) {
        body.insertAdjacentHTML('afterbegin', rows);
        const empty = document.getElementById('requests-empty');
        if (empty) empty.remove();
        for (const row of body.querySelectorAll('tr:not([data-seen])')) {
          row.dataset.seen = '1';
          row.classList.add('fresh');
        }
        while (body.rows.length > MAX_ROWS) body.deleteRow(-1);
        if (status) status.textContent = 'Updated ' + new Date().toLocaleTimeString();
      }
      if (newest) table.dataset.after = newest;
    } catch {
      if (status) status.textContent = 'Live updates: the sandbox does not answer';
    }
    schedule();
  }
  for (const row of body.rows) row.dataset.seen = '1';
  schedule();
})();
`;
