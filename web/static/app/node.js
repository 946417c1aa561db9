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
 * at the port the node state reports (PRCPort).
 */
export async function connect(params = new URLSearchParams(location.search)) {
  const rest = (params.get('rest') || `${location.origin}/api/v1`).replace(/\/+$/, '');
  let rpc = params.get('rpc');
  if (!rpc) {
    const state = await restGet(rest, '/node/state');
    rpc = `${location.protocol}//${location.hostname}:${state.PRCPort}/`;
  }
  return new Node(rest, rpc);
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
  constructor(rest, rpc) {
    this.rest = rest;
    this.rpc = rpc;
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
