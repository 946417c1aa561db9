// The didlight app: routes (#/resolve/<did>, #/query?…, #/chain/…; the
// bare #/resolve lists the chain's recent DIDs), the node it talks to, the
// EID endpoint it may resolve through instead (?endpoint=, or a light
// node's upstream), and the verifier it loads.

import { h, replace, code, errorBox } from './dom.js';
import { connect, endpointSetting, useEndpoint, lightOf } from './node.js';
import { loadVerifier } from './verify.js';
import * as resolve from './resolve.js';
import * as eid from './eid.js';
import * as recent from './recent.js';
import * as query from './query.js';
import * as chain from './chain.js';

const main = document.getElementById('main');
const nodeInfo = document.getElementById('node-info');
const verifierInfo = document.getElementById('verifier-info');

const app = {
  node: null,
  // eid is set when DIDs are resolved through an EID endpoint:
  // {endpoint, chainId, light}, light being a light node's state (lightOf).
  eid: null,
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
  const ownChain = !app.eid || app.eid.light;
  if (view === 'query' || view === 'chain') {
    if (!ownChain) return replace(main, elsewhere(view));
    if (view === 'query') return query.render(app, main, query.parse(new URLSearchParams(search)));
    return chain.render(app, main, parts.slice(1));
  }
  const did = parts[1] ?? '';
  const results = h('div', { id: 'result' });
  const entry = resolve.form(app, did);
  replace(main, h('section', { 'aria-labelledby': 'resolve-title' }, h('h2', { id: 'resolve-title', class: did ? 'visually-hidden' : '' }, 'Resolve a DID'), entry, results));
  if (did) await (app.eid ? eid.render : resolve.render)(app, results, did);
  else if (app.eid) replace(results, h('p', { class: 'hint', 'data-endpoint': app.eid.endpoint }, `DIDs are resolved through ${app.eid.endpoint} and verified in this browser. Type a did:elastos DID above.`));
  else await recent.render(app, results, entry.querySelector('input'));
}

/** elsewhere says why a view of the node's own chain is not shown. */
function elsewhere(view) {
  return h(
    'div',
    { class: 'alert', role: 'status', 'data-elsewhere': view },
    h('strong', {}, `The ${view === 'query' ? 'query console' : 'chain view'} shows a didlight node’s own chain.`),
    h('p', {}, `This page resolves DIDs through the EID endpoint ${app.eid.endpoint}, whose chain it does not list.`),
    h('p', {}, h('button', { type: 'button', onclick: () => useEndpoint('') }, 'Use this page’s node instead')),
  );
}

/** settings is the form that points the page at an EID endpoint, or back at its node. */
function settings() {
  const input = h('input', { id: 'endpoint-input', name: 'endpoint', type: 'url', value: app.eid && !app.eid.light ? app.eid.endpoint : '', placeholder: 'https://api.elastos.io/eid', spellcheck: 'false', autocomplete: 'off' });
  return h(
    'form',
    {
      class: 'entry endpoint-form',
      onsubmit: (e) => {
        e.preventDefault();
        useEndpoint(input.value.trim());
      },
    },
    h('label', { for: 'endpoint-input' }, 'Resolve through an EID endpoint'),
    input,
    h('button', { type: 'submit' }, 'Use'),
    app.eid && !app.eid.light && h('button', { type: 'button', onclick: () => useEndpoint('') }, 'Use this node'),
    h('p', { class: 'hint' }, 'Any EID JSON-RPC URL this page may reach (CORS), or a didlight node’s. The answers are verified in this browser either way.'),
  );
}

/** nodeLine says what the page talks to. */
function nodeLine() {
  const n = app.node;
  if (app.eid && !app.eid.light) return ['Endpoint: ', code(app.eid.endpoint, { id: 'endpoint' }), ' (EID JSON-RPC), answers verified in this browser'];
  if (app.eid?.light) {
    const ups = app.eid.light.upstreams;
    return ['Node: ', h('strong', { 'data-light': 'true' }, 'light node'), ups.length ? [' of ', ups.map((u, i) => [i > 0 && ', ', code(u, { class: 'mono upstream' })])] : ' (its upstream not reported)', ' — JSON-RPC ', code(n.rpc), '; it verifies what it serves, and so does this page'];
  }
  return ['Node: JSON-RPC ', code(n.rpc), ', REST ', code(n.rest)];
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
  const endpoint = endpointSetting();
  try {
    app.node = await connect();
  } catch (e) {
    if (!endpoint) {
      replace(main, errorBox('No node to talk to', e.message, 'Give one with ?rpc=<JSON-RPC URL>&rest=<REST base URL> in the address, or an EID endpoint below (?endpoint=<URL>).'));
      replace(nodeInfo, 'Node: none');
      nodeInfo.after(settings());
      return;
    }
  }
  const light = lightOf(app.node?.state);
  if (endpoint) app.eid = { endpoint };
  else if (light) app.eid = { endpoint: app.node.rpc, chainId: light.chainId, light };
  replace(nodeInfo, ...nodeLine());
  nodeInfo.after(settings());
  await verifier;
  document.body.dataset.ready = 'true';
  window.addEventListener('hashchange', route);
  await route();
}

start();
