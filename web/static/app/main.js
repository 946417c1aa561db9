// The didlight app: routes (#/resolve/<did>, #/query?…, #/chain/…; the
// bare #/resolve lists the chain's recent DIDs), the node it talks to and
// the verifier it loads.

import { h, replace, code, errorBox } from './dom.js';
import { connect } from './node.js';
import { loadVerifier } from './verify.js';
import * as resolve from './resolve.js';
import * as recent from './recent.js';
import * as query from './query.js';
import * as chain from './chain.js';

const main = document.getElementById('main');
const nodeInfo = document.getElementById('node-info');
const verifierInfo = document.getElementById('verifier-info');

const app = {
  node: null,
  didlight: null,
  verifierError: null,

  /** normalizeDID returns the full form of a DID the user typed, or says why not. */
  async normalizeDID(text) {
    if (!this.didlight) return text.startsWith('did:') ? text : 'did:elastos:' + text;
    try {
      return (await this.didlight.parseDid(text.startsWith('did:') ? text : 'did:elastos:' + text)).did;
    } catch (e) {
      const box = document.getElementById('did-error') ?? h('p', { id: 'did-error', class: 'alert alert-error', role: 'alert' });
      replace(box, `“${text}” is not a DID: ${e.message}`);
      document.querySelector('form.entry')?.after(box);
      return null;
    }
  },

  /** timings shows the last verification's time beside the module's load time. */
  timings({ verifyMs }) {
    const last = document.getElementById('verify-ms');
    if (last && verifyMs !== undefined) {
      last.dataset.ms = verifyMs.toFixed(2);
      last.textContent = `; last verification ${verifyMs.toFixed(1)} ms`;
    }
  },
};

const tabs = [...document.querySelectorAll('nav.tabs a')];

async function route() {
  const [path, search = ''] = location.hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const view = parts[0] ?? 'resolve';
  for (const a of tabs) {
    if (a.dataset.view === view) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  document.title = `didlight — ${view}`;
  if (view === 'query') return query.render(app, main, query.parse(new URLSearchParams(search)));
  if (view === 'chain') return chain.render(app, main, parts.slice(1));
  const did = parts[1] ?? '';
  const results = h('div', { id: 'result' });
  const entry = resolve.form(app, did);
  replace(main, h('section', { 'aria-labelledby': 'resolve-title' }, h('h2', { id: 'resolve-title', class: did ? 'visually-hidden' : '' }, 'Resolve a DID'), entry, results));
  if (did) await resolve.render(app, results, did);
  else await recent.render(app, results, entry.querySelector('input'));
}

async function start() {
  const verifier = loadVerifier().then(
    (v) => {
      app.didlight = v.didlight;
      verifierInfo.dataset.loadMs = v.ms.toFixed(2);
      replace(verifierInfo, 'Verifier: didlight.wasm', v.bytes ? ` (${(v.bytes / 1e6).toFixed(1)} MB)` : '', ` loaded in ${v.ms.toFixed(0)} ms`, h('span', { id: 'verify-ms' }));
    },
    (e) => {
      app.verifierError = e.message;
      verifierInfo.dataset.error = 'true';
      replace(verifierInfo, errorBox('The verifier did not load: answers are shown unverified.', e.message));
    },
  );
  try {
    app.node = await connect();
    replace(nodeInfo, 'Node: JSON-RPC ', code(app.node.rpc), ', REST ', code(app.node.rest));
  } catch (e) {
    replace(main, errorBox('No node to talk to', e.message, 'Give one with ?rpc=<JSON-RPC URL>&rest=<REST base URL> in the address.'));
    return;
  }
  await verifier;
  document.body.dataset.ready = 'true';
  window.addEventListener('hashchange', route);
  await route();
}

start();
