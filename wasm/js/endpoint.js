// Resolving from an endpoint: an EID node (the Elastos identity chain) or a
// didlight node, which answers the same methods. Each call asks as the
// Elastos DID SDKs ask, verifies every answer in the module, fetches what
// the verification asks for (other DIDs' histories, the blocks and senders
// of transactions), and returns what was verified with the report of what
// was checked and what was taken on the endpoint's word.

/**
 * EndpointError is an endpoint that could not be asked, or that answered
 * something other than a JSON-RPC 2.0 answer to the request, or answered
 * with an error object (code and data are its members).
 */
export class EndpointError extends Error {
  constructor(message, { url, method, code, data } = {}) {
    super(message);
    this.name = 'EndpointError';
    this.url = url;
    this.method = method;
    this.code = code;
    this.data = data;
  }
}

/**
 * @typedef {object} Report
 * What a verification checked, what it took on the endpoint's word and
 * what nobody checked; docs/eid.md says what each claim means.
 * @property {'verified'|'migrated'|'nothing to verify'} outcome
 * @property {string[]} checked
 * @property {string[]} trusted
 * @property {string[]} unchecked
 */

/**
 * @typedef {object} Tip
 * The chain tip whose time expiry is judged at.
 * @property {number} [number] its height, when the endpoint told it
 * @property {Date} time
 * @property {'block'|'given'|'clock'} source where the time came from: the
 *   endpoint's head block, the caller's now option, or (an endpoint that
 *   tells no head) this computer's clock
 */

/**
 * @typedef {object} Fetched
 * What verification asked for beside the answer, as the endpoint gave it.
 * @property {{did: string, answer: string}[]} dids other DIDs' did_resolveDID answers (all=true)
 * @property {string[]} transactions eth_getTransactionByHash answers
 */

/**
 * @typedef {object} EndpointOptions
 * @property {string} endpoint the JSON-RPC URL of an EID node or a didlight node
 * @property {number} [chainId] the chain's id (22 mainnet, 23 testnet); asked with eth_chainId when left out
 * @property {Date|number|string} [now] the time to judge expiry at; the endpoint's head block's when left out
 * @property {typeof fetch} [fetch] the fetch to use (default globalThis.fetch)
 * @property {number} [timeout] milliseconds to wait for each answer (default 30000, as the SDKs)
 */

/**
 * @typedef {object} VerifiedDID
 * verify_eid_did's result, and where it came from.
 * @property {string} did
 * @property {0|2|3} status EID's status: 0 valid, 2 deactivated, 3 not found
 * @property {string} statusName
 * @property {string} [txid] the latest document's transaction
 * @property {object} [document] the latest document, normalized
 * @property {boolean} complete the answer holds the whole history from the create
 * @property {boolean} expired the latest document has expired at the tip's time
 * @property {string[]} [migrated] txids of operations from EID's migration window, only their signatures checked
 * @property {Report} report
 * @property {object} answer the endpoint's result object, as received
 * @property {number} chainId
 * @property {Tip} tip
 * @property {Fetched} fetched
 */

/**
 * @typedef {object} VerifiedCredential
 * verify_eid_credential's result, and where it came from.
 * @property {string} id
 * @property {0|2|3} status 0 valid, 2 revoked, 3 not found
 * @property {string} statusName
 * @property {string} [txid] the declare's transaction
 * @property {object} [credential] the declared credential, normalized
 * @property {string} [revokedBy] the DID whose revoke counts
 * @property {number} shown the transactions the answer shows
 * @property {Report} report
 * @property {object} answer
 * @property {number} chainId
 * @property {Tip} tip
 * @property {Fetched} fetched
 */

/** maxFetched bounds what one verification may ask for beside its answer. */
const maxFetched = 64;

const quantityRE = /^0x[0-9a-fA-F]{1,16}$/;

/** requestId is a fresh id as the SDKs make theirs: 16 random bytes in hex. */
function requestId() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * call sends one JSON-RPC request as the SDKs write it (no jsonrpc member,
 * a fresh id) and returns the response's text, as received, and its
 * result. The answer must be a JSON-RPC 2.0 response to that id.
 */
async function call(url, method, params, { fetch: f = globalThis.fetch, timeout = 30000 } = {}) {
  const id = requestId();
  const where = { url, method };
  let resp, text;
  try {
    resp = await f(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id, method, params }),
      signal: AbortSignal.timeout(timeout),
    });
    text = await resp.text();
  } catch (e) {
    throw new EndpointError(`${url} did not answer ${method} (${e.message}); from a web page, only endpoints that allow the page's origin answer (CORS)`, where);
  }
  if (!resp.ok) throw new EndpointError(`${url} answered ${method} with HTTP ${resp.status}: ${text.slice(0, 200)}`, { ...where, code: resp.status });
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    throw new EndpointError(`${url} answered ${method} with something that is not JSON: ${text.slice(0, 80)}`, where);
  }
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg) || msg.jsonrpc !== '2.0') {
    throw new EndpointError(`${url} answered ${method} with something that is not a JSON-RPC 2.0 response: ${text.slice(0, 80)}`, where);
  }
  if (msg.id !== id) throw new EndpointError(`${url} answered ${method} with id ${JSON.stringify(msg.id)}, not the request's ${id}`, where);
  if (msg.error != null) {
    const { code, message, data } = msg.error;
    throw new EndpointError(`${url} answered ${method} with error ${code}: ${message}`, { ...where, code, data });
  }
  if (!('result' in msg)) throw new EndpointError(`${url} answered ${method} without a result`, where);
  return { text, result: msg.result };
}

/** quantity reads an EVM quantity (0x and hex digits) as a number. */
function quantity(v, what, url) {
  if (typeof v !== 'string' || !quantityRE.test(v)) throw new EndpointError(`${url}: ${what} ${JSON.stringify(v)} is not a quantity`, { url });
  return Number.parseInt(v, 16);
}

const methodNotFound = (e) => e instanceof EndpointError && e.code === -32601;

/**
 * tip returns the chain tip: the head block's time by eth_blockNumber and
 * eth_getBlockByNumber, as an EID node tells it; a didlight node, which has
 * no eth_getBlockByNumber, tells it by getblockbyheight; an endpoint with
 * neither leaves this computer's clock.
 */
async function tip(url, opts) {
  let number;
  try {
    number = (await call(url, 'eth_blockNumber', [], opts)).result;
  } catch (e) {
    if (methodNotFound(e)) return { time: new Date(), source: 'clock' };
    throw e;
  }
  const height = quantity(number, 'eth_blockNumber', url);
  let seconds;
  try {
    const block = (await call(url, 'eth_getBlockByNumber', [number, true], opts)).result;
    if (block === null || typeof block !== 'object') throw new EndpointError(`${url} has no block ${number}, its own head`, { url });
    seconds = quantity(block.timestamp, `block ${number}'s timestamp`, url);
  } catch (e) {
    if (!methodNotFound(e)) throw e;
    try {
      seconds = (await call(url, 'getblockbyheight', { height }, opts)).result?.time;
    } catch (e2) {
      if (methodNotFound(e2)) return { number: height, time: new Date(), source: 'clock' };
      throw e2;
    }
    if (!Number.isSafeInteger(seconds)) throw new EndpointError(`${url}: block ${height}'s time ${JSON.stringify(seconds)} is not a number`, { url });
  }
  return { number: height, time: new Date(seconds * 1000), source: 'block' };
}

/** endpointOf returns the endpoint the options name. */
function endpointOf(opts) {
  if (!opts?.endpoint) throw new TypeError('didlight: give the endpoint to ask ({endpoint: URL})');
  return opts.endpoint;
}

/** iso writes a time as the module reads it. */
const iso = (t) => new Date(t).toISOString();

/**
 * withEndpoints returns the calls that resolve from an endpoint and verify
 * with api, the module's bound API (api.js).
 */
export function withEndpoints(api) {
  const chainIds = new Map(); // by endpoint URL

  async function chainIdOf(url, opts) {
    if (opts.chainId !== undefined) return opts.chainId;
    if (!chainIds.has(url)) {
      const p = call(url, 'eth_chainId', [], opts).then(({ result }) => {
        const id = quantity(result, 'eth_chainId', url);
        if (id === 0) throw new EndpointError(`${url} does not know its chain's id yet (eth_chainId ${result}): ask again later, or give chainId`, { url, method: 'eth_chainId' });
        return id;
      });
      chainIds.set(url, p);
      p.catch(() => chainIds.delete(url));
    }
    return chainIds.get(url);
  }

  async function context(url, opts) {
    const [chainId, t] = await Promise.all([
      chainIdOf(url, opts),
      opts.now !== undefined ? { time: new Date(opts.now), source: 'given' } : tip(url, opts),
    ]);
    return { url, chainId, tip: t };
  }

  /**
   * settle runs a module call until it stops asking for more: on a need
   * error it fetches the DIDs' histories and the transactions named and
   * calls again with them. The module's refusal carries answer, the
   * endpoint's result it refused, and what was fetched, so that a page can
   * show what was refused.
   */
  async function settle(run, input, url, opts, answer) {
    try {
      return await fetchUntilDone(run, input, url, opts);
    } catch (e) {
      if (e?.name === 'DidlightError') e.answer = answer;
      throw e;
    }
  }

  async function fetchUntilDone(run, input, url, opts) {
    const fetched = { dids: [], transactions: [] };
    const asked = new Set();
    for (;;) {
      try {
        return { result: await run({ ...input, dids: fetched.dids, transactions: fetched.transactions }), fetched };
      } catch (e) {
        if (e?.name !== 'DidlightError' || e.type !== 'need') throw e;
        const wanted = [...(e.dids ?? []).map((d) => ['did', d]), ...(e.txids ?? []).map((t) => ['tx', t])];
        for (const [kind, x] of wanted) {
          if (asked.has(kind + x)) throw new Error(`didlight: verification asks again for ${x}, which was fetched`);
          if (asked.size >= maxFetched) throw new Error(`didlight: verification needs more than ${maxFetched} other answers`);
          asked.add(kind + x);
          if (kind === 'did') fetched.dids.push({ did: x, answer: (await call(url, 'did_resolveDID', [{ did: x, all: true }], opts)).text });
          else fetched.transactions.push((await call(url, 'eth_getTransactionByHash', ['0x' + x], opts)).text);
        }
      }
    }
  }

  return {
    /**
     * head returns the endpoint's head block, whose time the calls judge
     * expiry at: {number, time, source} (see Tip).
     * @param {string} url
     * @param {{fetch?: typeof fetch, timeout?: number}} [opts]
     * @returns {Promise<Tip>}
     */
    head: (url, opts = {}) => tip(url, opts),

    /**
     * resolveVerified resolves did from an endpoint (did_resolveDID, as the
     * SDKs ask) and verifies the answer in the module, with the
     * controllers' histories and the transactions verification asks for.
     * A tampered or failing answer throws a DidlightError naming the rule
     * broken (its answer member is the endpoint's result, as received); an
     * endpoint that cannot be asked, an EndpointError.
     * @param {string} did a DID in full form or the bare id
     * @param {EndpointOptions & {all?: boolean}} opts all (default true): the whole history
     * @returns {Promise<VerifiedDID>}
     */
    async resolveVerified(did, opts) {
      const url = endpointOf(opts);
      const all = opts.all ?? true;
      const [ctx, { text, result }] = await Promise.all([context(url, opts), call(url, 'did_resolveDID', [all ? { did, all } : { did }], opts)]);
      const input = { did, all, now: iso(ctx.tip.time), chainId: ctx.chainId };
      const { result: v, fetched } = await settle((i) => api.verifyEidDid(text, i), input, url, opts, result);
      return { ...v, answer: result, chainId: ctx.chainId, tip: ctx.tip, fetched };
    },

    /**
     * resolveCredentialVerified resolves a credential from an endpoint
     * (did_resolveCredential) and verifies the answer in the module, with
     * the owner's, issuer's and signers' histories.
     * @param {string} id the credential id
     * @param {EndpointOptions & {issuer?: string}} opts issuer: the request's issuer param
     * @returns {Promise<VerifiedCredential>}
     */
    async resolveCredentialVerified(id, opts) {
      const url = endpointOf(opts);
      const issuer = opts.issuer;
      const params = [issuer === undefined ? { id } : { id, issuer }];
      const [ctx, { text, result }] = await Promise.all([context(url, opts), call(url, 'did_resolveCredential', params, opts)]);
      const input = { id, issuer, now: iso(ctx.tip.time), chainId: ctx.chainId };
      const { result: v, fetched } = await settle((i) => api.verifyEidCredential(text, i), input, url, opts, result);
      return { ...v, answer: result, chainId: ctx.chainId, tip: ctx.tip, fetched };
    },

    /**
     * listCredentialsVerified lists a DID's credentials (did_listCredentials)
     * and checks the list in the module: the DID asked for, a page at most,
     * each id under that DID, once. Which credentials are listed is the
     * endpoint's word; resolve each to verify it.
     * @param {string} did
     * @param {{endpoint: string, skip?: number, limit?: number, fetch?: typeof fetch, timeout?: number}} opts
     * @returns {Promise<{did: string, ids: string[], report: Report, answer: object}>}
     */
    async listCredentialsVerified(did, opts) {
      const url = endpointOf(opts);
      const { skip = 0, limit = 0 } = opts;
      const p = { did };
      if (skip) p.skip = skip;
      if (limit) p.limit = limit;
      const { text, result } = await call(url, 'did_listCredentials', [p], opts);
      return { ...(await api.verifyEidCredentialList(text, { did, skip, limit })), answer: result };
    },

    /**
     * resolveW3CVerified answers a W3C DID Resolution request from an
     * endpoint: the DID's whole history (did_resolveDID, all=true),
     * verified in the module, then the resolution or dereferencing result
     * built from it (as resolveW3C builds it), with the report.
     * @param {string} didUrl a DID, or a DID URL with its path, query and fragment
     * @param {EndpointOptions & {accept?: string, options?: string|object}} opts
     * @returns {Promise<{status: number, contentType?: string, location?: string, body?: object, report?: Report, chainId?: number, tip?: Tip, fetched?: Fetched}>}
     */
    async resolveW3CVerified(didUrl, opts) {
      const url = endpointOf(opts);
      const did = /^did:elastos:[^/?#]*/.exec(didUrl)?.[0];
      const w3c = { accept: opts.accept, options: opts.options };
      if (!did) return api.resolveW3CEid(undefined, didUrl, w3c); // the module answers the request's error
      const [ctx, { text, result }] = await Promise.all([context(url, opts), call(url, 'did_resolveDID', [{ did, all: true }], opts)]);
      const input = { ...w3c, now: iso(ctx.tip.time), chainId: ctx.chainId };
      const { result: r, fetched } = await settle((i) => api.resolveW3CEid(text, didUrl, i), input, url, opts, result);
      return { ...r, chainId: ctx.chainId, tip: ctx.tip, fetched };
    },
  };
}
