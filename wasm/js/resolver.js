// The did:elastos method for the did-resolver package: each resolution asks
// an EID or didlight endpoint for the DID's whole history, verifies it in
// the module and answers the W3C DID Resolution result the module builds
// from it (core/w3c, as a didlight node's /1.0/identifiers does), with what
// was verified and what was taken on the endpoint's word in its metadata.

/** networks are the endpoints the DID SDKs ask by default, with their chain ids. */
export const networks = {
  mainnet: { endpoint: 'https://api.elastos.io/eid', chainId: 22 },
  testnet: { endpoint: 'https://api-testnet.elastos.io/eid', chainId: 23 },
};

/** errorNames maps the W3C error types to the names did-resolver gives them. */
const errorNames = {
  INVALID_DID: 'invalidDid',
  INVALID_DID_URL: 'invalidDidUrl',
  INVALID_OPTIONS: 'invalidOptions',
  NOT_FOUND: 'notFound',
  REPRESENTATION_NOT_SUPPORTED: 'representationNotSupported',
  METHOD_NOT_SUPPORTED: 'unsupportedDidMethod',
  FEATURE_NOT_SUPPORTED: 'featureNotSupported',
  INTERNAL_ERROR: 'internalError',
};

const resultType = 'application/did-resolution';

/**
 * resolverFor returns getResolver for a loader's load: the package's
 * node.js and browser.js each export it with their own.
 */
export function resolverFor(load) {
  /**
   * getResolver returns {elastos: resolve} for did-resolver's Resolver.
   * Options: endpoint, 'mainnet' (default), 'testnet' or the JSON-RPC URL of
   * an EID node or a didlight node; chainId (known for the two networks,
   * else asked once); didlight, a loaded API (or its promise) to use
   * instead of loading the module on the first resolve; wasm, the module
   * for load; cacheSize, the results kept (default 256, 0 for none);
   * headTtl, the milliseconds a head block is taken as current (default
   * 4000); fetch and timeout, as the loader's endpoint calls take them.
   */
  return function getResolver(options = {}) {
    const net = networks[options.endpoint ?? 'mainnet'];
    const endpoint = net?.endpoint ?? options.endpoint;
    const chainId = options.chainId ?? net?.chainId;
    const { cacheSize = 256, headTtl = 4000, fetch, timeout } = options;
    let api;
    const loaded = () => (api ??= Promise.resolve(options.didlight ?? load({ wasm: options.wasm })).catch((e) => {
      api = undefined;
      throw e;
    }));
    const heads = new Head(headTtl);
    const cache = new Cache(cacheSize);
    const inflight = new Map(); // by cache key: resolutions under way

    async function resolveAt(d, did, query, accept, head) {
      const r = await d.resolveW3CVerified(did, { endpoint, chainId, now: head.time, fetch, timeout, accept: resultType, options: query });
      return resultOf(r, { endpoint, head, accept });
    }

    async function resolve(did, parsed, _resolver, resolutionOptions = {}) {
      const noCache = parsed?.params?.['no-cache'] === 'true';
      const query = parsed?.query;
      const accept = resolutionOptions.accept;
      try {
        const d = await loaded();
        const invalid = await d.parseDid(did).then(() => false, (e) => e?.name === 'DidlightError');
        if (invalid) return resultOf(await d.resolveW3CEid(undefined, did, { accept: resultType }), { endpoint, accept }); // the module's INVALID_DID
        const head = await heads.get(() => d.head(endpoint, { fetch, timeout }), noCache);
        const key = `${head.number ?? head.time.getTime()} ${did}?${query ?? ''} ${accept ?? ''}`;
        if (!noCache) {
          const kept = cache.get(key) ?? inflight.get(key); // a result, or the promise of one under way
          if (kept) return structuredClone(await kept);
        }
        const p = resolveAt(d, did, query, accept, head);
        if (!noCache) inflight.set(key, p);
        try {
          const result = await p;
          cache.set(key, result);
          return structuredClone(result);
        } finally {
          if (!noCache) inflight.delete(key);
        }
      } catch (e) {
        return failure(e, endpoint);
      }
    }

    return { elastos: resolve };
  };
}

/**
 * resultOf turns the module's W3C answer into did-resolver's result: the
 * error's type as did-resolver names it (the W3C problem object kept as
 * problemDetails) and the verification report.
 */
function resultOf(r, { endpoint, head, accept }) {
  const body = r.body ?? {};
  const meta = { ...body.didResolutionMetadata };
  if (meta.error && typeof meta.error === 'object') {
    meta.problemDetails = meta.error;
    meta.error = errorNames[String(meta.error.type).replace(/^.*#/, '')] ?? 'internalError';
  }
  if (r.report) {
    meta.verification = {
      verifiedBy: 'didlight module',
      ...r.report,
      endpoint,
      chainId: r.chainId,
      head: { number: head.number, time: head.time.toISOString(), source: head.source },
      fetched: { dids: (r.fetched?.dids ?? []).map((x) => x.did), transactions: r.fetched?.transactions?.length ?? 0 },
    };
  }
  let doc = body.didDocument ?? null;
  if (doc && accept === 'application/did+json') {
    const { '@context': _, ...rest } = doc;
    doc = rest;
    meta.contentType = accept;
  } else if (doc && accept && accept !== 'application/did+ld+json' && accept !== meta.contentType) {
    return { didResolutionMetadata: { error: 'representationNotSupported', verification: meta.verification }, didDocument: null, didDocumentMetadata: {} };
  }
  return { didResolutionMetadata: meta, didDocument: doc, didDocumentMetadata: body.didDocumentMetadata ?? {} };
}

/**
 * failure is the result for what the module refused (error notVerified,
 * verification.outcome "refused", the rule broken) or for an endpoint
 * that could not be asked (internalError): a resolver never throws.
 */
function failure(e, endpoint) {
  const problemDetails = { type: e?.name ?? 'Error', detail: String(e?.message ?? e) };
  if (e?.name === 'DidlightError') {
    const { type, rule, index, txid } = e;
    return {
      didResolutionMetadata: { error: 'notVerified', problemDetails, verification: { verifiedBy: 'didlight module', outcome: 'refused', type, rule, index, txid, endpoint } },
      didDocument: null,
      didDocumentMetadata: {},
    };
  }
  return { didResolutionMetadata: { error: 'internalError', problemDetails }, didDocument: null, didDocumentMetadata: {} };
}

/**
 * Head keeps the endpoint's head block for ttl milliseconds, one request at
 * a time: the results of one head are cached together.
 */
class Head {
  constructor(ttl) {
    this.ttl = ttl;
    this.value = undefined; // a promise of the head
    this.at = 0;
  }

  get(ask, fresh) {
    if (fresh || !this.value || Date.now() - this.at > this.ttl) {
      this.at = Date.now();
      const p = ask();
      this.value = p;
      p.catch(() => {
        if (this.value === p) this.value = undefined;
      });
    }
    return this.value;
  }
}

/** Cache keeps at most size results, dropping the least recently used. */
class Cache {
  constructor(size) {
    this.size = size;
    this.entries = new Map();
  }

  get(key) {
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  set(key, value) {
    if (this.size <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value);
  }
}
