// The loaders resolve from an EID endpoint and verify in the module, asked
// of a synthetic EID node (eid-fixture.json: a customized DID and its
// controllers, a DID of the migration window, a credential of a customized
// DID issued by another; made by wasm/js TestEIDFixture, not recorded). The
// recorded scenario of a real EID node is asked by host/wasmrt's
// TestLoaderEID, through apicalls.mjs.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { load, DidlightError, EndpointError } from '../node.js';
import { load as loadBrowser } from '../browser.js';
import { withEndpoints } from '../endpoint.js';
import { fixture, endpoint, upstream } from './upstream.js';

const { customized, controllers, migrated, migratedTx, credential, issuer } = fixture.subjects;
const wasm = await WebAssembly.compile(await readFile(new URL('../didlight.wasm', import.meta.url)));
let loaders;

before(async () => {
  loaders = { node: await load({ wasm }), browser: await loadBrowser({ wasm }) };
});

const methods = (asked) => asked.map((r) => r.method);

/** flip changes one character of a base64url signature. */
const flip = (sig) => (sig[5] === 'A' ? 'B' : 'A') + sig.slice(1, 5) + sig.slice(6);

test('a standard DID resolves as the SDKs ask, verified at the head block’s time', async () => {
  for (const d of Object.values(loaders)) {
    const up = upstream();
    const v = await d.resolveVerified(controllers[0], { endpoint, fetch: up.fetch });
    assert.equal(v.did, controllers[0]);
    assert.equal(v.status, 0);
    assert.equal(v.statusName, 'valid');
    assert.equal(v.complete, true);
    assert.equal(v.expired, false);
    assert.equal(v.report.outcome, 'verified');
    assert.ok(v.report.checked.includes('signatures') && v.report.checked.includes('key-derivation'));
    assert.ok(v.report.trusted.includes('inclusion'));
    assert.deepEqual(v.report.unchecked, []);
    assert.equal(v.chainId, 22);
    assert.deepEqual(v.tip, { number: fixture.head.number, time: new Date(fixture.head.time), source: 'block' });
    assert.equal(v.answer.transaction[0].txid, v.txid);
    assert.deepEqual(v.fetched, { dids: [], transactions: [] });
    const resolve = up.asked.find((r) => r.method === 'did_resolveDID');
    assert.deepEqual(Object.keys(resolve).sort(), ['id', 'method', 'params']);
    assert.match(resolve.id, /^[0-9a-f]{32}$/);
    assert.deepEqual(resolve.params, [{ did: controllers[0], all: true }]);
    assert.deepEqual(methods(up.asked).sort(), ['did_resolveDID', 'eth_blockNumber', 'eth_chainId', 'eth_getBlockByNumber']);
  }
});

test('a customized DID: its controllers’ histories are fetched and verified too', async () => {
  for (const d of Object.values(loaders)) {
    const up = upstream();
    const v = await d.resolveVerified(customized, { endpoint, fetch: up.fetch });
    assert.equal(v.status, 0);
    assert.equal(v.report.outcome, 'verified');
    assert.ok(v.report.checked.includes('controllers'));
    assert.ok(v.report.trusted.includes('reserved-names'));
    const fetched = v.fetched.dids.map((f) => f.did).sort();
    assert.ok(fetched.length > 0 && fetched.every((f) => controllers.includes(f)), `fetched ${fetched}`);
    for (const r of up.asked.filter((r) => r.method === 'did_resolveDID' && r.params[0].did !== customized)) {
      assert.deepEqual(r.params, [{ did: r.params[0].did, all: true }]);
    }
    // The chain id is asked once per endpoint and loader.
    await d.resolveVerified(controllers[1], { endpoint, fetch: up.fetch });
    assert.equal(methods(up.asked).filter((m) => m === 'eth_chainId').length <= 1, true);
  }
});

test('a DID of the migration window: its transaction is fetched, and it is reported migrated', async () => {
  for (const d of Object.values(loaders)) {
    const up = upstream();
    const v = await d.resolveVerified(migrated, { endpoint, fetch: up.fetch });
    assert.equal(v.report.outcome, 'migrated');
    assert.deepEqual(v.migrated, [migratedTx]);
    assert.ok(v.report.unchecked.includes('migrated-operations'));
    assert.ok(v.report.trusted.includes('provenance'));
    assert.equal(v.fetched.transactions.length, 1);
    assert.deepEqual(up.asked.find((r) => r.method === 'eth_getTransactionByHash').params, ['0x' + migratedTx]);
  }
});

test('a credential, and its customized owner’s and issuer’s histories', async () => {
  for (const d of Object.values(loaders)) {
    const up = upstream();
    const v = await d.resolveCredentialVerified(credential, { endpoint, fetch: up.fetch });
    assert.equal(v.id, credential);
    assert.equal(v.status, 0);
    assert.equal(v.credential.issuer, issuer);
    assert.equal(v.report.outcome, 'verified');
    const fetched = v.fetched.dids.map((f) => f.did);
    for (const want of [customized, issuer]) assert.ok(fetched.includes(want), `fetched ${fetched}, want ${want}`);
    assert.deepEqual(up.asked.find((r) => r.method === 'did_resolveCredential').params, [{ id: credential }]);
    const list = await d.listCredentialsVerified(customized, { endpoint, fetch: up.fetch });
    assert.deepEqual(list.ids, [credential]);
    assert.ok(list.report.trusted.includes('listed-credentials'));
  }
});

test('W3C resolution from the verified history', async () => {
  for (const d of Object.values(loaders)) {
    const up = upstream();
    const r = await d.resolveW3CVerified(customized, { endpoint, fetch: up.fetch });
    assert.equal(r.status, 200);
    assert.equal(r.body.didDocument.id, customized);
    assert.equal(r.report.outcome, 'verified');
    assert.ok(r.fetched.dids.length > 0);
    const asked = up.asked.length;
    const other = await d.resolveW3CVerified('did:web:example.org', { endpoint, fetch: up.fetch });
    assert.equal(other.status, 501);
    assert.equal(up.asked.length, asked, 'another method’s DID was asked of the endpoint');
  }
});

test('now and chainId given: the endpoint is asked neither', async () => {
  const up = upstream();
  const v = await loaders.node.resolveVerified(controllers[0], { endpoint, fetch: up.fetch, now: '2030-01-01T00:00:00Z', chainId: 22 });
  assert.deepEqual(methods(up.asked), ['did_resolveDID']);
  assert.equal(v.expired, true);
  assert.equal(v.status, 0);
  assert.deepEqual(v.tip, { time: new Date('2030-01-01T00:00:00Z'), source: 'given' });
});

test('an endpoint without eth_getBlockByNumber: getblockbyheight (a didlight node), else the clock', async () => {
  const didlight = upstream((req, resp) => {
    if (req.method === 'eth_getBlockByNumber') return { jsonrpc: '2.0', id: req.id, error: { code: -32601, message: 'Method not found' } };
    if (req.method === 'getblockbyheight') return { jsonrpc: '2.0', id: req.id, result: { height: req.params.height, time: Date.parse('2022-03-05T00:00:00Z') / 1000 } };
    return resp;
  });
  const v = await loaders.node.resolveVerified(controllers[0], { endpoint, fetch: didlight.fetch });
  assert.deepEqual(v.tip, { number: fixture.head.number, time: new Date('2022-03-05T00:00:00Z'), source: 'block' });
  const none = upstream((req, resp) => (req.method === 'eth_blockNumber' ? { jsonrpc: '2.0', id: req.id, error: { code: -32601, message: 'Method not found' } } : resp));
  const before = Date.now();
  const c = await loaders.node.resolveVerified(controllers[0], { endpoint, fetch: none.fetch });
  assert.equal(c.tip.source, 'clock');
  assert.ok(c.tip.time.getTime() >= before);
});

/** tamperedAnswer rewrites the result of the did_resolveDID answer for did. */
const tamperedAnswer = (did, edit) => (req, resp) => {
  if (req.method === 'did_resolveDID' && req.params[0].did === did) edit(resp.result);
  return resp;
};

test('tampered answers are refused by the module, naming what failed', async () => {
  const cases = [
    ['a flipped signature byte', controllers[0], tamperedAnswer(controllers[0], (r) => (r.transaction[0].operation.proof.signature = flip(r.transaction[0].operation.proof.signature))), { type: 'verify', rule: 'signature', index: 0 }],
    ['a controller’s flipped signature', customized, tamperedAnswer(controllers[0], (r) => (r.transaction[0].operation.proof.signature = flip(r.transaction[0].operation.proof.signature))), { type: 'verify', rule: 'lookup' }],
    ['a payload of another DID', controllers[0], tamperedAnswer(controllers[0], (r) => {
      const other = fixture.answers.find((a) => a.method === 'did_resolveDID' && a.params[0].did === controllers[1]).result;
      r.transaction[0].operation.payload = other.transaction[0].operation.payload;
    }), { type: 'verify' }],
    ['status deactivated claimed', controllers[0], tamperedAnswer(controllers[0], (r) => (r.status = 2)), { type: 'verify' }],
    ['the migrated transaction from another sender', migrated, (req, resp) => {
      if (req.method === 'eth_getTransactionByHash') resp.result.from = '0x14b1cf2ceecfd04006a57dd060692758aa1ca330';
      return resp;
    }, { rule: 'doc-proof' }],
  ];
  for (const [name, did, change, want] of cases) {
    for (const [loader, d] of Object.entries(loaders)) {
      await assert.rejects(d.resolveVerified(did, { endpoint, fetch: upstream(change).fetch }), (e) => {
        assert.ok(e instanceof DidlightError, `${name} (${loader}): ${e}`);
        for (const [k, v] of Object.entries(want)) assert.equal(e[k], v, `${name} (${loader}): ${k} of ${e.message}`);
        assert.equal(e.answer?.did, did, `${name} (${loader}): the refused answer`);
        return true;
      });
    }
  }
});

test('an endpoint that does not answer as asked is an EndpointError', async () => {
  const reply = (f) => upstream((req, resp) => (req.method === 'did_resolveDID' ? f(req, resp) : resp));
  const cases = [
    ['another request’s id', reply((req, resp) => ({ ...resp, id: 'f'.repeat(32) })), /with id "f+", not the request's/],
    ['no jsonrpc member', reply((req, resp) => ({ id: resp.id, result: resp.result })), /not a JSON-RPC 2.0 response/],
    ['an error object', reply((req) => ({ jsonrpc: '2.0', id: req.id, error: { code: -32000, message: 'did is not exist' } })), /error -32000: did is not exist/],
    ['HTTP 503', reply(() => new Response('busy', { status: 503 })), /HTTP 503/],
    ['not JSON', reply(() => new Response('<html>')), /not JSON/],
    ['no result', reply((req) => ({ jsonrpc: '2.0', id: req.id })), /without a result/],
  ];
  for (const [name, up, message] of cases) {
    await assert.rejects(loaders.node.resolveVerified(controllers[0], { endpoint, fetch: up.fetch }), (e) => {
      assert.ok(e instanceof EndpointError, `${name}: ${e}`);
      assert.match(e.message, message, name);
      assert.equal(e.method, 'did_resolveDID', name);
      return true;
    });
  }
  const unreachable = () => Promise.reject(new TypeError('fetch failed'));
  await assert.rejects(loaders.node.resolveVerified(controllers[0], { endpoint, fetch: unreachable }), /did not answer did_resolveDID \(fetch failed\).*CORS/);
  const noChainYet = upstream((req, resp) => (req.method === 'eth_chainId' ? { ...resp, result: '0x0' } : resp));
  const fresh = await load({ wasm }); // one that has not asked this endpoint's chain id yet
  await assert.rejects(fresh.resolveVerified(controllers[0], { endpoint, fetch: noChainYet.fetch }), /does not know its chain's id yet/);
  await assert.rejects(loaders.node.resolveVerified(controllers[0], {}), TypeError);
});

test('a controller’s answer about another DID is refused', async () => {
  const up = upstream(tamperedAnswer(controllers[0], (r) => {
    const other = fixture.answers.find((a) => a.method === 'did_resolveDID' && a.params[0].did === controllers[1]).result;
    Object.assign(r, structuredClone(other));
  }));
  await assert.rejects(loaders.node.resolveVerified(customized, { endpoint, fetch: up.fetch }), (e) => e instanceof DidlightError && e.type === 'verify' && e.rule === 'lookup');
});

test('the need loop ends: a need for what was fetched, or for ever more', async () => {
  const need = (dids) => Object.assign(new Error('needs'), { name: 'DidlightError', type: 'need', dids });
  const stub = (next) => withEndpoints({ verifyEidDid: async (answer, input) => { throw need(next(input)); } });
  const up = upstream((req, resp) => (req.method === 'did_resolveDID' ? { jsonrpc: '2.0', id: req.id, result: { did: req.params[0].did, status: 3 } } : resp));
  const opts = { endpoint, fetch: up.fetch, now: 0, chainId: 22 };
  await assert.rejects(stub(() => [controllers[0]]).resolveVerified(customized, opts), /asks again for did:elastos:/);
  let n = 0;
  await assert.rejects(stub(() => [`did:elastos:i${n++}`]).resolveVerified(customized, opts), /more than 64 other answers/);
  assert.equal(n, 65);
});
