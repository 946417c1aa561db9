// The didlight module's API, shared by the browser and Node loaders: the
// ABI (see package github.com/didlight/didlight/wasm/abi in the repository) wrapped in async
// functions that take and return plain JavaScript values, and the calls
// that resolve from an EID or didlight endpoint and verify (endpoint.js).

import { withEndpoints } from './endpoint.js';

export { EndpointError } from './endpoint.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The answers of the imported host functions. */
const UNAVAILABLE = -1;
const LOOKUP_FAILED = -2;

/**
 * DidlightError is a failed call: the module's error object, whose members
 * (type, rule, detail, index, txid, offset, field, expected, found,
 * operator, path) are copied onto the error.
 */
export class DidlightError extends Error {
  constructor(object) {
    super(object.message);
    this.name = 'DidlightError';
    Object.assign(this, object);
  }
}

/**
 * hostImports returns the "didlight" import object of the module.
 * verify(pub, digest, sig) gets three Uint8Arrays and returns true, false,
 * or undefined when it cannot tell; sha256(data) gets a Uint8Array and
 * returns its SHA-256 digest (32 bytes), synchronously; lookup(did) returns
 * the current document of the DID (an object or JSON text) or null.
 */
export function hostImports(memory, { verify, sha256, lookup } = {}) {
  let last = { did: undefined, bytes: null };
  return {
    p256_verify(pub, digest, sig) {
      if (!verify) return UNAVAILABLE;
      const m = new Uint8Array(memory().buffer);
      const ok = verify(m.slice(pub, pub + 33), m.slice(digest, digest + 32), m.slice(sig, sig + 64));
      return ok === undefined ? UNAVAILABLE : ok ? 1 : 0;
    },
    sha256(data, n, digest) {
      if (!sha256) return UNAVAILABLE;
      const sum = sha256(new Uint8Array(memory().buffer, data, n));
      new Uint8Array(memory().buffer, digest, 32).set(sum);
      return 1;
    },
    lookup_document(didPtr, didLen, buf, cap) {
      if (!lookup) return UNAVAILABLE;
      const did = decoder.decode(new Uint8Array(memory().buffer, didPtr, didLen));
      if (did !== last.did) {
        let doc;
        try {
          doc = lookup(did);
        } catch {
          return LOOKUP_FAILED;
        }
        const text = doc == null ? '' : typeof doc === 'string' ? doc : JSON.stringify(doc);
        last = { did, bytes: encoder.encode(text) };
      }
      const n = last.bytes.length;
      if (n > 0 && n <= cap) new Uint8Array(memory().buffer, buf, n).set(last.bytes);
      // Keep the answer only for the module's second ask, with room for
      // it; a later lookup of the DID asks the host again (its document
      // may have changed since).
      if (n <= cap) last = { did: undefined, bytes: null };
      return n;
    },
  };
}

// json writes a value of an input: JSON text passes as it is (a document
// or result as a node sent it), anything else is stringified.
const json = (v) => (typeof v === 'string' ? v : JSON.stringify(v));

// object writes an input object, leaving out undefined members.
function object(members) {
  const parts = [];
  for (const [k, v] of Object.entries(members)) {
    if (v !== undefined) parts.push(JSON.stringify(k) + ':' + v);
  }
  return '{' + parts.join(',') + '}';
}

const time = (t) => (t === undefined ? undefined : JSON.stringify(new Date(t).toISOString()));
const list = (docs) => (docs === undefined ? undefined : '[' + docs.map(json).join(',') + ']');
const str = (s) => (s === undefined ? undefined : JSON.stringify(s));
const num = (n) => (n === undefined ? undefined : String(n));
const query = (options) => str(options === undefined || typeof options === 'string' ? options : new URLSearchParams(options).toString());

/** fetchedMembers writes what an EID call fetched: {dids: [{did, answer}], transactions: [answer]}. */
const fetchedMembers = ({ now, chainId, dids, transactions }) => ({
  now: time(now),
  chainId: num(chainId),
  dids: dids === undefined ? undefined : '[' + dids.map(({ did, answer }) => object({ did: str(did), answer: json(answer) })).join(',') + ']',
  transactions: list(transactions),
});

/**
 * bind wraps an initialized instance of the module. The instance runs one
 * call at a time; calls are synchronous underneath, so the async functions
 * never interleave.
 */
export function bind(instance) {
  const x = instance.exports;
  if (x.abi_version() !== 1) throw new Error(`didlight: the module's ABI version is ${x.abi_version()}, want 1`);
  let busy = false;

  /** callRaw runs a call on JSON text and returns the envelope's text. */
  function callRaw(name, input) {
    const f = x[name];
    if (typeof f !== 'function' || name === 'alloc' || name === 'free') throw new Error(`didlight: no call ${name}`);
    if (busy) throw new Error(`didlight: ${name} called during another call`);
    busy = true;
    try {
      const bytes = encoder.encode(input);
      const p = x.alloc(bytes.length);
      new Uint8Array(x.memory.buffer, p, bytes.length).set(bytes);
      const r = f(p, bytes.length);
      const out = Number(BigInt.asUintN(64, r) >> 32n);
      const n = Number(BigInt.asUintN(32, r));
      const text = decoder.decode(new Uint8Array(x.memory.buffer, out, n));
      x.free(out);
      return text;
    } finally {
      busy = false;
    }
  }

  /** call runs a call on an input object or text and returns its result. */
  function call(name, input) {
    const envelope = JSON.parse(callRaw(name, json(input)));
    if (envelope.error) throw new DidlightError(envelope.error);
    return envelope.result;
  }

  const run = async (name, members) => call(name, object(members));

  const api = {
    callRaw,
    call: async (name, input) => call(name, input),
    /** parseDid(did) → {did, id, customized} */
    parseDid: (did) => run('parse_did', { did: str(did) }),
    /** parseDocument(doc, {verify, documents}) → {did, expires, customized, document} */
    parseDocument: (document, { verify, documents } = {}) =>
      run('parse_document', { document: json(document), verify: verify ? 'true' : undefined, documents: list(documents) }),
    /** newDocument({publicKey | key, expires, services}) → the unsigned document of a new DID */
    newDocument: ({ publicKey, key, expires, services }) =>
      run('new_document', { publicKey: str(publicKey), key: str(key), expires: time(expires), services: services && JSON.stringify(services) }),
    /**
     * verifyResolveResult(result, {now, documents}) checks a node's
     * resolvedid answer (the result object or the whole JSON-RPC response,
     * as an object or as the text received) → {did, status, statusName,
     * txid, document, complete}. now defaults to the current time.
     */
    verifyResolveResult: (result, { now = Date.now(), documents } = {}) =>
      run('verify_resolve_result', { result: json(result), now: time(now), documents: list(documents) }),
    /**
     * resolveW3C(result, did, {accept, options, now, documents}) answers a
     * W3C DID Resolution request for did (a DID, or a DID URL with its
     * query and fragment) from a node's resolvedid answer holding the
     * whole history (all: true), which it verifies first as
     * verifyResolveResult does → {status, contentType, location, body}: the
     * answer the node's GET /1.0/identifiers/{did} gives (without block
     * heights), body parsed. options: resolution options, an object or a
     * query string; accept: the media type asked for.
     */
    resolveW3C: (result, did, { accept, options, now = Date.now(), documents } = {}) =>
      run('resolve_w3c', {
        result: json(result),
        did: str(did),
        options: query(options),
        accept: str(accept),
        now: time(now),
        documents: list(documents),
      }),
    /**
     * verifyEidDid(answer, {did, all, now, chainId, dids, transactions})
     * checks an EID node's did_resolveDID answer (as the text received, or
     * parsed) for the request {did, all} → {did, status, statusName, txid,
     * document, complete, expired, migrated, report}. When it needs more it
     * throws a DidlightError of type "need" naming dids (resolve each with
     * all: true) and txids (eth_getTransactionByHash); add their answers to
     * dids ([{did, answer}]) and transactions, and call again.
     * resolveVerified does all of this.
     */
    verifyEidDid: (answer, { did, all, now, chainId, dids, transactions }) =>
      run('verify_eid_did', { answer: json(answer), did: str(did), all: all ? 'true' : undefined, ...fetchedMembers({ now, chainId, dids, transactions }) }),
    /**
     * verifyEidCredential(answer, {id, issuer, now, chainId, dids,
     * transactions}) checks a did_resolveCredential answer → {id, status,
     * statusName, txid, credential, revokedBy, shown, report}; needs as
     * verifyEidDid.
     */
    verifyEidCredential: (answer, { id, issuer, now, chainId, dids, transactions }) =>
      run('verify_eid_credential', { answer: json(answer), id: str(id), issuer: str(issuer), ...fetchedMembers({ now, chainId, dids, transactions }) }),
    /** verifyEidCredentialList(answer, {did, skip, limit}) checks a did_listCredentials answer → {did, ids, report} */
    verifyEidCredentialList: (answer, { did, skip, limit }) =>
      run('verify_eid_credential_list', { answer: json(answer), did: str(did), skip: skip ? num(skip) : undefined, limit: limit ? num(limit) : undefined }),
    /**
     * resolveW3CEid(answer, didUrl, {accept, options, now, chainId, dids,
     * transactions}) answers a W3C DID Resolution request from an EID
     * node's did_resolveDID answer with the whole history, verified as
     * verifyEidDid verifies it → {status, contentType, location, body,
     * report}; needs as verifyEidDid.
     */
    resolveW3CEid: (answer, didUrl, { accept, options, now, chainId, dids, transactions } = {}) =>
      run('resolve_w3c_eid', {
        answer: answer === undefined ? undefined : json(answer),
        did: str(didUrl),
        options: query(options),
        accept: str(accept),
        ...fetchedMembers({ now, chainId, dids, transactions }),
      }),
    /** statusOf(history, {tip}) → {status, statusName}; history: a result's transaction array */
    statusOf: (history, { tip = Date.now() } = {}) => run('status_of', { history: json(history), tip: time(tip) }),
    /** validateOperation(op, {state, now, detached, documents}) → {did, operation, method} */
    validateOperation: (operation, { state, now, detached, documents } = {}) =>
      run('validate_operation', {
        operation: json(operation),
        state: state && object({ document: json(state.document), txid: str(state.txid), deactivated: state.deactivated ? 'true' : undefined }),
        now: time(now),
        detached: detached ? 'true' : undefined,
        documents: list(documents),
      }),
    /** match(condition, documents, {view}) → [bool] one per document */
    match: async (condition, documents, { view } = {}) =>
      (await run('match', { condition: JSON.stringify(condition), documents: list(documents), view: view ? 'true' : undefined })).matches,
    /** decodeTx(hex) → the REST transaction object */
    decodeTx: (tx) => run('decode_tx', { tx: str(tx) }),
    /** verifyTx(hex, referenced) → {txid}; referenced: program hashes (hex) of the spent outputs */
    verifyTx: (tx, referenced) => run('verify_tx', { tx: str(tx), referenced: JSON.stringify(referenced) }),
    /** signDocument(doc, key, {method, created}) → {document} with a new proof */
    signDocument: (document, key, { method, created = Date.now() } = {}) =>
      run('sign_document', { document: json(document), key: str(key), method: str(method), created: time(created) }),
    /** signOperation({operation, document, previousTxid, did, key, method}) → {request} */
    signOperation: ({ operation, document, previousTxid, did, key, method }) =>
      run('sign_operation', {
        operation: str(operation),
        document: document === undefined ? undefined : json(document),
        previousTxid: str(previousTxid),
        did: str(did),
        key: str(key),
        method: str(method),
      }),
  };
  return Object.assign(api, withEndpoints(api));
}
