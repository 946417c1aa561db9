// The node's two APIs, as the app reaches them: JSON-RPC (resolvedid,
// query) on its own port, with CORS, and REST (/api/v1) on the origin that
// served the page unless told otherwise.

/** NodeError is an answer the node gave as an error. */
export class NodeError extends Error {
  constructor(message, { code, data, url } = {}) {
    super(message);
    this.name = 'NodeError';
    this.code = code;
    this.data = data;
    this.url = url;
  }
}

/**
 * connect finds the node's endpoints: rest and rpc from the page's ?rest=
 * and ?rpc= parameters, else REST on this origin and JSON-RPC on this host
 * at the port the node state reports (PRCPort). The node's state is kept
 * (state; null when ?rpc= was given and the state could not be read).
 */
export async function connect(params = new URLSearchParams(location.search)) {
  const rest = (params.get('rest') || `${location.origin}/api/v1`).replace(/\/+$/, '');
  let rpc = params.get('rpc');
  let state = null;
  try {
    state = await restGet(rest, '/node/state');
  } catch (e) {
    if (!rpc) throw e;
  }
  rpc ||= `${location.protocol}//${location.hostname}:${state.PRCPort}/`;
  return new Node(rest, rpc, state);
}

/** endpointKey is where this browser keeps the EID endpoint the settings chose. */
const endpointKey = 'didlight.endpoint';

/**
 * endpointSetting returns the EID endpoint the page resolves through: the
 * page's ?endpoint= parameter, else the one the settings saved in this
 * browser, else none (the node's own chain).
 */
export function endpointSetting(params = new URLSearchParams(location.search)) {
  const url = params.get('endpoint') ?? localStorage.getItem(endpointKey);
  return url ? url.trim() : null;
}

/**
 * useEndpoint points the page at an EID endpoint (url), or back at its own
 * node (url empty): it saves the choice and loads the page with it in the
 * address, keeping the route.
 */
export function useEndpoint(url) {
  const params = new URLSearchParams(location.search);
  if (url) {
    localStorage.setItem(endpointKey, url);
    params.set('endpoint', url);
  } else {
    localStorage.removeItem(endpointKey);
    params.delete('endpoint');
  }
  const search = params.toString();
  const next = location.pathname + (search ? '?' + search : '') + location.hash;
  if (next === location.pathname + location.search + location.hash) location.reload(); // the saved setting changed, not the address
  else location.assign(next);
}

/**
 * lightOf reads a light node's node state (didlight node --light): its
 * Light member {Mode: "light", Upstream: [{URL, …}], ChainID, Head: {Height,
 * Time}, …} → {upstreams, chainId, head}, or null for a node with a chain
 * of its own. Members the app does not know are left alone.
 */
export function lightOf(state) {
  const l = state?.Light;
  if (l?.Mode !== 'light') return null;
  const upstreams = [l.Upstream ?? []].flat().map((u) => (typeof u === 'string' ? u : u?.URL)).filter((u) => typeof u === 'string');
  const chainId = Number.isSafeInteger(l.ChainID) && l.ChainID > 0 ? l.ChainID : undefined;
  const time = l.Head?.Time ? new Date(l.Head.Time) : null;
  const head = time && !Number.isNaN(time.getTime()) ? { height: l.Head.Height, time } : undefined;
  return { upstreams, chainId, head };
}

async function fetchText(url, init) {
  let resp;
  try {
    resp = await fetch(url, init);
  } catch (e) {
    throw new NodeError(`the node is unreachable at ${url} (${e.message})`, { url });
  }
  const text = await resp.text();
  if (!resp.ok) throw new NodeError(`${url} answered HTTP ${resp.status}: ${text.slice(0, 200)}`, { url, code: resp.status });
  return text;
}

async function restGet(base, path) {
  const url = base + path;
  const text = await fetchText(url);
  let env;
  try {
    env = JSON.parse(text);
  } catch {
    throw new NodeError(`${url} did not answer JSON`, { url });
  }
  if (env.Error !== 0) throw new NodeError(`${env.Desc} (${env.Error}): ${typeof env.Result === 'string' ? env.Result : JSON.stringify(env.Result)}`, { code: env.Error, url, data: env.Result });
  return env.Result;
}

/** Node is a connected node. */
export class Node {
  constructor(rest, rpc, state = null) {
    this.rest = rest;
    this.rpc = rpc;
    this.state = state;
    this.id = 0;
  }

  /** get reads a REST path (after /api/v1) and returns its Result. */
  get(path) {
    return restGet(this.rest, path);
  }

  /**
   * callText sends a JSON-RPC call and returns the response text as
   * received (what verification must read) and the result parsed.
   */
  async callText(method, params) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params });
    const text = await fetchText(this.rpc, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    let resp;
    try {
      resp = JSON.parse(text);
    } catch {
      throw new NodeError(`${this.rpc} did not answer JSON to ${method}`, { url: this.rpc });
    }
    if (resp.error) {
      const data = resp.error.data === undefined ? '' : ` (${typeof resp.error.data === 'string' ? resp.error.data : JSON.stringify(resp.error.data)})`;
      throw new NodeError(`${resp.error.message}${data}`, { code: resp.error.code, data: resp.error.data, url: this.rpc });
    }
    return { text, result: resp.result };
  }

  /** call sends a JSON-RPC call and returns its result. */
  async call(method, params) {
    return (await this.callText(method, params)).result;
  }

  /** identifiersURL is where the node resolves did by the W3C DID Resolution HTTP(S) binding. */
  identifiersURL(did) {
    return this.rest.replace(/\/api\/v1$/, '') + '/1.0/identifiers/' + encodeURIComponent(did).replace(/%3A/gi, ':');
  }

  /** w3c resolves did through the node's W3C endpoint → {status, contentType, body}, as the node sent it. */
  async w3c(did) {
    const url = this.identifiersURL(did);
    let resp;
    try {
      resp = await fetch(url, { headers: { Accept: 'application/did-resolution' } });
    } catch (e) {
      throw new NodeError(`the node is unreachable at ${url} (${e.message})`, { url });
    }
    const text = await resp.text();
    try {
      return { status: resp.status, contentType: resp.headers.get('Content-Type'), body: JSON.parse(text) };
    } catch {
      throw new NodeError(`${url} answered HTTP ${resp.status} without JSON: ${text.slice(0, 200)}`, { url, code: resp.status });
    }
  }

  /** tip returns the chain tip: height, hash and block time (a Date). */
  async tip() {
    const height = await this.get('/block/height');
    const block = await this.get(`/block/details/height/${height}`);
    return { height, hash: block.hash, time: new Date(block.time * 1000) };
  }
}
