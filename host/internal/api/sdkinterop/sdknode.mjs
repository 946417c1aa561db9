// Shared set-up of the interop suite: the official SDK pointed at the
// didlight node named by DIDLIGHT_RPC_URL (its JSON-RPC listener, which
// also serves the SDK's /resolve, /idtx and /reset), a fresh DID store per
// test file, and the node's own JSON-RPC methods the SDK does not call.

import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIDBackend, DIDDocument, DIDStore, Mnemonic, RootIdentity, SimulatedIDChainAdapter } from '@elastosfoundation/did-js-sdk';

export const storepass = 'interop-storepass';

/** rpcURL is the node's JSON-RPC URL; the suite cannot run without one. */
export const rpcURL = process.env.DIDLIGHT_RPC_URL;
if (!rpcURL) {
  throw new Error('DIDLIGHT_RPC_URL is not set: give the JSON-RPC URL of a didlight node, e.g. http://127.0.0.1:20336/ (go test ./host/internal/api/sdkinterop starts one)');
}

/**
 * restURL is the node's REST URL (ending in /api/v1), beside which it
 * serves W3C DID Resolution at /1.0/identifiers; go test sets it with
 * DIDLIGHT_RPC_URL.
 */
export const restURL = process.env.DIDLIGHT_REST_URL;

/**
 * connect points the SDK at the node the way any app would
 * (DIDBackend.initialize with a SimulatedIDChainAdapter), wipes the
 * node's chain through the adapter so that the file starts from genesis,
 * and opens a store (openStore). It returns the adapter and the store.
 */
export async function connect() {
  const adapter = new SimulatedIDChainAdapter(rpcURL);
  DIDBackend.initialize(adapter);
  await adapter.resetData();
  DIDBackend.getInstance().clearCache();
  return { adapter, store: await openStore() };
}

/**
 * publishedDids makes n standard DIDs of a fresh identity in store and
 * publishes them, as the suites' controllers and owners.
 */
export async function publishedDids(store, n) {
  const mnemonic = Mnemonic.getInstance(Mnemonic.ENGLISH).generate();
  const identity = await RootIdentity.createFromMnemonic(mnemonic, '', store, storepass, true);
  const docs = [];
  for (let i = 0; i < n; i++) {
    const doc = await identity.newDid(storepass);
    await doc.publish(storepass);
    docs.push(doc);
  }
  return docs;
}

/** openStore opens a DID store in a fresh directory, removed when the process exits. */
export async function openStore() {
  const dir = await mkdtemp(join(tmpdir(), 'didlight-sdkinterop-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return DIDStore.open(dir);
}

/**
 * rpc calls one of the node's JSON-RPC methods directly (the interface's
 * resolvedid, devnet controls) and returns its result, or throws with the
 * node's error object.
 */
export async function rpc(method, params) {
  const res = await fetch(rpcURL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  if (!res.ok) throw new Error(`${method}: HTTP ${res.status}`);
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.code} ${body.error.message}: ${JSON.stringify(body.error.data)}`);
  return body.result;
}

/** resolveRaw answers did_resolveDID (the SDK's method) or resolvedid (the interface's) as the node sends it. */
export function resolveRaw(method, did, all = false) {
  return rpc(method, method === 'resolvedid' ? { did: String(did), all } : [{ did: String(did), all }]);
}

/** Refused is the node's answer to an ID-chain request it did not mine. */
export class Refused extends Error {
  constructor(status, body) {
    super(`/idtx answered ${status}: ${body.message ?? JSON.stringify(body)}`);
    this.name = 'Refused';
    this.status = status;
    this.code = body.code;
    this.rule = body.rule;
  }
}

/**
 * direct is a DIDTransactionAdapter (the SDK's hook for publishing, taken by
 * publish, deactivate, declare, revoke and the DIDBackend calls) that posts
 * to /idtx as SimulatedIDChainAdapter does, but when the node refuses keeps
 * its reason: a Refused with the node's error code and the rule broken.
 */
export const direct = {
  async createIdTransaction(payload) {
    const res = await fetch(new URL('/idtx', rpcURL), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: payload });
    if (!res.ok) throw new Refused(res.status, await res.json().catch(() => ({})));
  },
};

/**
 * edit seals a new version of a document, as apps do before publishing:
 * from `from` (a document, or a DID whose copy in store is taken), changed
 * by change(builder) (which may be async), edited as `controller` (for a
 * customized DID) and signed on by each of `cosigners` (for a multisig
 * rule). The result is kept in store, not published.
 */
export async function edit(store, from, change, { controller, cosigners = [] } = {}) {
  const base = from instanceof DIDDocument ? from : await store.loadDid(from);
  const builder = DIDDocument.Builder.newFromDocument(base).edit(controller);
  await change(builder);
  let doc = await builder.seal(storepass);
  for (const c of cosigners) doc = await c.signWithDocument(doc, storepass);
  await store.storeDid(doc);
  return doc;
}
