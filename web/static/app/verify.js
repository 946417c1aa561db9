// The light client: the didlight module, loaded in this page, checks what
// the node answers (core/resolve's verifier: signatures, previousTxid links,
// signers, document proofs, status at the chain tip's time). Controllers'
// documents are fetched from the node and checked the same way first.

const moduleURL = new URL('../wasm/didlight.wasm', import.meta.url);
const loaderURL = new URL('../wasm/browser.js', import.meta.url);
const shimURL = new URL('../wasm/shim/dist/index.js', import.meta.url);

/**
 * loadVerifier fetches, compiles and instantiates the module and returns
 * {didlight, ms, bytes}, ms being the whole time from the request to a
 * ready instance. A node built without the module or without the WASI
 * shim the loader imports answers 503 with why; that text is the error's
 * message.
 */
export async function loadVerifier() {
  const t0 = performance.now();
  const resp = await fetch(moduleURL);
  if (!resp.ok) throw await refusal(resp, moduleURL);
  const loader = import(loaderURL.href).catch(async (e) => {
    const shim = await fetch(shimURL).catch(() => null);
    throw shim && !shim.ok ? await refusal(shim, shimURL) : e;
  });
  const [{ load }, module] = await Promise.all([loader, WebAssembly.compileStreaming(resp)]);
  const didlight = await load({ wasm: module });
  const bytes = Number(resp.headers.get('X-Module-Size')) || undefined;
  return { didlight, ms: performance.now() - t0, bytes };
}

/** refusal is the error of a node's answer that is not the file asked for: its text says why. */
async function refusal(resp, url) {
  return new Error((await resp.text()).trim() || `HTTP ${resp.status} for ${url}`);
}

/** maxDepth bounds the chain of controllers fetched for one DID. */
const maxDepth = 4;

/**
 * check resolves did through node (all: the whole history) and verifies
 * the answer at now, fetching and checking the controllers it names
 * first. It returns {did, text, result, verified, error, ms, controllers,
 * w3c}: verified is the module's answer, error the reason it refused (a
 * DidlightError), ms the time the verification of this answer took,
 * controllers the same record for each controller checked, and w3c (for
 * the DID asked for, once its whole history verified) the W3C DID
 * Resolution answer the module builds from that history:
 * {status, contentType, body}, or {error}.
 */
export async function check(node, didlight, did, { all = true, now, depth = 0, seen = new Set() } = {}) {
  seen.add(did.toLowerCase());
  const { text, result } = await node.callText('resolvedid', { did, all });
  const controllers = [];
  for (const c of controllersOf(result)) {
    if (seen.has(c.toLowerCase()) || depth >= maxDepth) continue;
    controllers.push(await check(node, didlight, c, { all: false, now, depth: depth + 1, seen }));
  }
  const documents = controllers.filter((c) => c.verified?.document).map((c) => c.verified.document);
  const t0 = performance.now();
  let verified, error;
  try {
    verified = await didlight.verifyResolveResult(text, { now, documents });
  } catch (e) {
    error = e;
  }
  const ms = performance.now() - t0;
  let w3c;
  if (depth === 0 && all && verified) {
    try {
      w3c = await didlight.resolveW3C(text, result.did, { now, documents });
    } catch (e) {
      w3c = { error: e };
    }
  }
  return { did: result?.did ?? did, text, result, verified, error, ms, controllers, w3c };
}

/** decodePayload reads a create/update/transfer payload: base64url of the document's JSON. */
export function decodePayload(payload) {
  const b64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
}

/** documentOf returns the document an operation publishes, or undefined. */
export function documentOf(op) {
  if (!op?.header || op.header.operation === 'deactivate') return undefined;
  try {
    return decodePayload(op.payload);
  } catch {
    return undefined;
  }
}

const didOf = (ref) => (typeof ref === 'string' && ref.startsWith('did:') ? ref.split('#')[0] : undefined);

/**
 * controllersOf lists the other DIDs a resolve result's operations lean
 * on: the controllers of the documents it publishes and the DIDs of
 * signers that are not the subject.
 */
export function controllersOf(result) {
  const subject = (result?.did ?? '').toLowerCase();
  const out = new Map();
  const add = (d) => {
    if (d && d.toLowerCase() !== subject) out.set(d.toLowerCase(), d);
  };
  for (const tx of result?.transaction ?? []) {
    const doc = documentOf(tx.operation);
    for (const c of [doc?.controller ?? []].flat()) add(didOf(c));
    add(didOf(tx.operation?.proof?.verificationMethod));
  }
  return [...out.values()];
}

/**
 * badges says, per transaction of a result (newest first), what the
 * verification found: verified, failed (with the error) or unchecked.
 * Operations are checked oldest first, so those older than a failing one
 * were verified and those newer were not reached.
 */
export function badges(result, verified, error) {
  const n = result?.transaction?.length ?? 0;
  if (verified) return Array(n).fill('verified');
  const index = error?.type === 'verify' && typeof error.index === 'number' ? error.index : undefined;
  if (index === undefined || index < 0) {
    // The result as a whole: a wrong status still means every operation held.
    return Array(n).fill(error?.rule === 'status' ? 'verified' : 'unchecked');
  }
  return Array.from({ length: n }, (_, i) => (i > index ? 'verified' : i === index ? 'failed' : 'unchecked'));
}
