import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import { load, DidlightError } from '../node.js';
import { bind, hostImports } from '../api.js';
import { load as loadBrowser } from '../browser.js';
import { history, testKey, txid, start } from './history.js';

const wasm = await WebAssembly.compile(await readFile(new URL('../didlight.wasm', import.meta.url)));
let node, nodeFallback, browser, result;

before(async () => {
  node = await load({ wasm });
  nodeFallback = await load({ wasm, hostCrypto: false });
  browser = await loadBrowser({ wasm });
  result = await history(node, 10);
});

const tip = start + 30 * 86400e3;

test('a 10-operation history verifies in every loader', async () => {
  for (const d of [node, nodeFallback, browser]) {
    const v = await d.verifyResolveResult(result, { now: tip });
    assert.equal(v.did, result.did);
    assert.equal(v.status, 0);
    assert.equal(v.statusName, 'valid');
    assert.equal(v.complete, true);
    assert.equal(v.txid, txid(9));
    assert.equal(v.document.service[0].serviceEndpoint, 'https://example.com/9');
  }
});

test('the loaders answer byte for byte alike, text or object input', async () => {
  const tampered = structuredClone(result);
  tampered.transaction[3].operation.proof.signature = result.transaction[4].operation.proof.signature;
  const inputs = [
    ['verify_resolve_result', { result, now: new Date(tip).toISOString() }],
    ['verify_resolve_result', { result: tampered, now: new Date(tip).toISOString() }],
    ['verify_resolve_result', { result: { ...result, status: 1 }, now: new Date(tip).toISOString() }],
    ['status_of', { history: result.transaction, tip: '2030-01-01T00:00:00Z' }],
    ['validate_operation', { operation: result.transaction[9].operation, now: '2024-06-01T00:00:00Z' }],
    ['match', { condition: '{service:{$elemMatch:{type:"Counter"}}}', documents: [{ service: [{ type: 'Counter' }] }, {}] }],
    ['parse_did', { did: 'did:elastos:' }],
    ['decode_tx', { tx: '00' }],
    ['sign_operation', { operation: 'deactivate', did: result.did, key: testKey, method: '#primary' }],
  ];
  for (const [name, input] of inputs) {
    const text = JSON.stringify(input);
    const want = node.callRaw(name, text);
    assert.equal(nodeFallback.callRaw(name, text), want, name);
    assert.equal(browser.callRaw(name, text), want, name);
  }
});

test('failures are DidlightErrors with the module error object', async () => {
  const tampered = structuredClone(result);
  tampered.transaction[3].operation.proof.signature = result.transaction[4].operation.proof.signature;
  for (const d of [node, browser]) {
    await assert.rejects(d.verifyResolveResult(tampered, { now: tip }), (e) => {
      assert.ok(e instanceof DidlightError);
      assert.equal(e.type, 'verify');
      assert.equal(e.rule, 'signature');
      assert.equal(e.index, 3);
      assert.equal(e.txid, txid(6));
      return true;
    });
  }
  await assert.rejects(node.verifyResolveResult('{"did":', { now: tip }), { type: 'input' });
  await assert.rejects(node.match('{a:', []), { type: 'syntax', offset: 3 });
  await assert.rejects(node.parseDid('did:other:x'), { type: 'invalid' });
  await assert.rejects(node.call('verify_resolve_result', { result, now: 'yesterday' }), { type: 'input' });
  assert.throws(() => node.callRaw('alloc', '{}'), /no call alloc/);
});

test('each call works through its function', async () => {
  assert.deepEqual(await node.parseDid('foobar'), { did: 'did:elastos:foobar', id: 'foobar', customized: true });
  const latest = result.transaction[0].operation;
  const doc = JSON.parse(Buffer.from(latest.payload, 'base64url'));
  const parsed = await node.parseDocument(doc, { verify: true });
  assert.equal(parsed.did, result.did);
  assert.deepEqual(await node.match({ 'service.type': 'Counter' }, [doc, { id: 'x' }]), [true, false]);
  assert.deepEqual(await node.match('{"credential":{"$size":0}}', [doc], { view: true }), [true]);
  const st = await node.statusOf(result.transaction, { tip: '2030-01-01T00:00:00Z' });
  assert.deepEqual(st, { status: 1, statusName: 'expired' });
  const prev = JSON.parse(Buffer.from(result.transaction[1].operation.payload, 'base64url'));
  const v = await node.validateOperation(latest, { state: { document: prev, txid: txid(8) }, now: start + 9 * 86400e3 });
  assert.equal(v.operation, 'update');
  await assert.rejects(node.validateOperation(latest, { state: { document: prev, txid: txid(7) }, now: start + 9 * 86400e3 }), {
    type: 'rule',
    rule: 'previous-txid',
  });
  await assert.rejects(node.validateOperation(latest, { state: { document: prev, txid: txid(8), deactivated: true } }), { rule: 'deactivated' });
  const detached = await node.validateOperation(latest, { detached: true });
  assert.equal(detached.did, result.did);
  const { request } = await node.signOperation({ operation: 'deactivate', did: result.did, key: testKey, method: '#primary' });
  assert.equal(request.header.operation, 'deactivate');
  await assert.rejects(node.decodeTx('0a'), { type: 'decode', rule: 'truncated' });
  await assert.rejects(node.verifyTx('zz', []), { type: 'input' });
});

test('resolveW3C answers as a W3C resolver, from the history it verified', async () => {
  for (const d of [node, nodeFallback, browser]) {
    const r = await d.resolveW3C(result, result.did, { now: tip });
    assert.equal(r.status, 200);
    assert.equal(r.contentType, 'application/did-resolution');
    assert.equal(r.body.didDocument.id, result.did);
    assert.equal(r.body.didDocumentMetadata.versionId, txid(9));
    assert.equal(r.body.didDocumentMetadata.created, '2024-06-01T00:00:00Z');
    assert.equal(r.body.didDocumentMetadata.method.transactionCount, 10);
    const old = await d.resolveW3C(result, result.did, { now: tip, options: { versionTime: '2024-06-03T12:00:00Z' } });
    assert.equal(old.body.didDocumentMetadata.versionId, txid(2));
    assert.equal(old.body.didDocumentMetadata.nextVersionId, txid(3));
    const key = await d.resolveW3C(result, `${result.did}#primary`, { now: tip, accept: 'application/did+json' });
    assert.equal(key.body.id, `${result.did}#primary`);
    assert.equal(key.body['@context'], undefined);
    const redirect = await d.resolveW3C(result, `${result.did}?service=s&relativeRef=%2Fa`, { now: tip });
    assert.deepEqual(redirect, { status: 303, location: 'https://example.com/9/a' });
    const invalid = await d.resolveW3C(result, 'did:web:example.org', { now: tip });
    assert.equal(invalid.status, 501);
    assert.equal(invalid.body.didResolutionMetadata.error.type, 'https://www.w3.org/ns/did#METHOD_NOT_SUPPORTED');
  }
  const tampered = structuredClone(result);
  tampered.transaction[3].operation.proof.signature = result.transaction[4].operation.proof.signature;
  await assert.rejects(node.resolveW3C(tampered, result.did, { now: tip }), { type: 'verify', rule: 'signature', index: 3 });
  await assert.rejects(node.resolveW3C({ ...result, transaction: result.transaction.slice(0, 1) }, result.did, { now: tip }), /all=true/);
});

test('lookup supplies documents the input does not list', async () => {
  const controller = JSON.parse(Buffer.from(result.transaction[0].operation.payload, 'base64url'));
  const asked = [];
  const d = await load({
    wasm,
    lookup: (did) => {
      asked.push(did);
      return did === result.did ? controller : null;
    },
  });
  // A customized DID controlled by the test DID, signed by its key.
  const customized = {
    id: 'did:elastos:jstest',
    controller: result.did,
    expires: '2025-06-01T00:00:00Z',
  };
  const signed = await d.signDocument(customized, testKey, { method: `${result.did}#primary`, created: start });
  const { request } = await d.signOperation({ operation: 'create', document: signed.document, key: testKey, method: `${result.did}#primary` });
  const v = await d.validateOperation(request, { now: start });
  assert.equal(v.did, 'did:elastos:jstest');
  assert.ok(asked.includes(result.did));
  // Each call asks again: the document may have changed since.
  const before = asked.length;
  await d.validateOperation(request, { now: start });
  assert.ok(asked.length > before, 'a second call was answered from the first call\'s lookup');
  const failing = await load({ wasm, lookup: () => { throw new Error('down'); } });
  await assert.rejects(failing.validateOperation(request, { now: start }), { rule: 'lookup' });
  await assert.rejects(node.validateOperation(request, { now: start }), { rule: 'controller' });
});

test("the host's verify judges the signatures, unless it cannot tell", async () => {
  const instantiate = async (verify, sha256) => {
    const wasi = new WASI({ version: 'preview1', returnOnExit: true });
    let memory;
    const instance = await WebAssembly.instantiate(wasm, {
      wasi_snapshot_preview1: wasi.wasiImport,
      didlight: hostImports(() => memory, { verify, sha256 }),
    });
    memory = instance.exports.memory;
    wasi.initialize(instance);
    return bind(instance);
  };
  let asked = 0;
  const refusing = await instantiate(() => (asked++, false));
  await assert.rejects(refusing.verifyResolveResult(result, { now: tip }), { rule: 'signature', index: 9 });
  assert.equal(asked, 1);
  asked = 0;
  const unsure = await instantiate(() => (asked++, undefined));
  assert.equal((await unsure.verifyResolveResult(result, { now: tip })).status, 0);
  assert.equal(asked, 20);
  // The host hashes what the signatures sign: each request and document.
  let hashed = 0;
  const hashing = await instantiate(undefined, (data) => (hashed++, createHash('sha256').update(data).digest()));
  assert.equal((await hashing.verifyResolveResult(result, { now: tip })).status, 0);
  assert.equal(hashed, 20);
  const wrong = await instantiate(undefined, () => new Uint8Array(32));
  await assert.rejects(wrong.verifyResolveResult(result, { now: tip }), { rule: 'signature', index: 9 });
});
