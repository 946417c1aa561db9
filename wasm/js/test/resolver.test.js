// getResolver, the did:elastos method for did-resolver, asked of the
// synthetic EID node (upstream.js) with the Node and browser loaders: what
// it answers, what it caches, and that it never throws. The published
// did-resolver around it is run by host/wasmrt's TestPackage.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { load, getResolver } from '../node.js';
import { load as loadBrowser } from '../browser.js';
import { fixture, endpoint, upstream } from './upstream.js';

const { customized, controllers } = fixture.subjects;
const wasm = await WebAssembly.compile(await readFile(new URL('../didlight.wasm', import.meta.url)));
let loaders;

before(async () => {
  loaders = { node: await load({ wasm }), browser: await loadBrowser({ wasm }) };
});

/** parse is did-resolver's reading of a DID URL, as much as the method reads. */
function parse(didUrl) {
  const m = /^(did:elastos:[^;/?#]+)((?:;[^/?#]*)?)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(didUrl);
  const params = m[2] ? Object.fromEntries(m[2].slice(1).split(';').map((p) => p.split('='))) : undefined;
  return { did: m[1], didUrl, method: 'elastos', id: m[1].slice(12), params, path: m[3] || undefined, query: m[4], fragment: m[5] };
}

const resolveWith = (r, didUrl, options) => r.elastos(parse(didUrl).did, parse(didUrl), null, options);

const asked = (up, method) => up.asked.filter((r) => r.method === method).length;

test('a DID resolves to the W3C result, verified, with what was trusted', async () => {
  for (const [name, didlight] of Object.entries(loaders)) {
    const up = upstream();
    const r = getResolver({ endpoint, fetch: up.fetch, didlight });
    const res = await resolveWith(r, customized);
    assert.equal(res.didDocument.id, customized, name);
    assert.equal(res.didResolutionMetadata.error, undefined);
    assert.equal(res.didResolutionMetadata.contentType, 'application/did+ld+json');
    const v = res.didResolutionMetadata.verification;
    assert.equal(v.outcome, 'verified');
    assert.ok(v.checked.includes('signatures') && v.trusted.includes('inclusion'), JSON.stringify(v));
    assert.equal(v.chainId, 22);
    assert.deepEqual(v.head, { number: 0x2f4d60, time: new Date(0x622a9100 * 1000).toISOString(), source: 'block' });
    assert.ok(v.fetched.dids.length > 0, 'the controllers were fetched and verified');
    const txids = fixture.answers.find((a) => a.method === 'did_resolveDID' && a.params[0].did === customized).result.transaction.map((t) => t.txid);
    assert.equal(res.didDocumentMetadata.versionId, txids[0]);
    assert.equal(typeof res.didDocumentMetadata.created, 'string');
  }
});

test('ten concurrent resolves of one DID ask once; no-cache asks again', async () => {
  const up = upstream();
  const r = getResolver({ endpoint, fetch: up.fetch, wasm }); // a loader of its own, which has not asked the chain's id
  const all = await Promise.all(Array.from({ length: 10 }, () => resolveWith(r, controllers[0])));
  for (const res of all) assert.deepEqual(res, all[0]);
  all[0].didDocument.id = 'changed';
  assert.equal((await resolveWith(r, controllers[0])).didDocument.id, controllers[0], 'a result handed out is a copy');
  for (const m of ['did_resolveDID', 'eth_chainId', 'eth_blockNumber', 'eth_getBlockByNumber']) assert.equal(asked(up, m), 1, m);
  await resolveWith(r, controllers[0] + ';no-cache=true');
  assert.equal(asked(up, 'did_resolveDID'), 2);
  assert.equal(asked(up, 'eth_blockNumber'), 2, 'no-cache asks for the head too');
});

test('results are kept per head: a new head asks again', async () => {
  const up = upstream();
  const r = getResolver({ endpoint, fetch: up.fetch, didlight: loaders.node, headTtl: 0 });
  await resolveWith(r, controllers[1]);
  await new Promise((ok) => setTimeout(ok, 2));
  await resolveWith(r, controllers[1]);
  assert.equal(asked(up, 'eth_blockNumber'), 2);
  assert.equal(asked(up, 'did_resolveDID'), 1, 'the same head: kept');
  const none = getResolver({ endpoint, fetch: up.fetch, didlight: loaders.node, cacheSize: 0 });
  await resolveWith(none, controllers[1]);
  await resolveWith(none, controllers[1]);
  assert.equal(asked(up, 'did_resolveDID'), 3, 'cacheSize 0 keeps nothing');
});

test('errors as did-resolver names them, never an exception', async () => {
  const notFound = upstream((req, resp) => (req.method === 'did_resolveDID' ? { jsonrpc: '2.0', id: req.id, result: { did: req.params[0].did, status: 3 } } : resp));
  const tampered = upstream((req, resp) => {
    if (req.method === 'did_resolveDID' && req.params[0].did === controllers[2]) {
      const tx = resp.result.transaction[0];
      tx.operation.proof.signature = (tx.operation.proof.signature[5] === 'A' ? 'B' : 'A') + tx.operation.proof.signature.slice(1);
    }
    return resp;
  });
  const down = { fetch: async () => { throw new TypeError('connection refused'); } };
  const cases = [
    { name: 'not found', up: notFound, did: controllers[2], error: 'notFound' },
    { name: 'invalid DID', up: upstream(), did: 'did:elastos:a b', error: 'invalidDid' },
    { name: 'bad version', up: upstream(), did: controllers[2] + '?versionTime=yesterday', error: 'invalidOptions' },
    { name: 'tampered', up: tampered, did: controllers[2], error: 'notVerified' },
    { name: 'endpoint down', up: down, did: controllers[2], error: 'internalError' },
  ];
  for (const c of cases) {
    const r = getResolver({ endpoint, fetch: c.up.fetch, didlight: loaders.node });
    const res = await resolveWith(r, c.did);
    assert.equal(res.didResolutionMetadata.error, c.error, `${c.name}: ${JSON.stringify(res.didResolutionMetadata)}`);
    assert.equal(res.didDocument, null, c.name);
    if (c.name === 'tampered') {
      assert.equal(res.didResolutionMetadata.verification.outcome, 'refused');
      assert.ok(res.didResolutionMetadata.verification.rule, 'the rule broken is named');
    }
  }
});

test('a module that does not load is an internalError, each time', async () => {
  const r = getResolver({ endpoint, fetch: upstream().fetch, wasm: new Uint8Array([0, 97, 115, 109]) });
  for (let i = 0; i < 2; i++) {
    const res = await resolveWith(r, controllers[0]);
    assert.equal(res.didResolutionMetadata.error, 'internalError');
    assert.match(res.didResolutionMetadata.problemDetails.detail, /WebAssembly|wasm/i);
  }
});

test('the named networks need no chain id question', async () => {
  const seen = [];
  const fetch = async (url, init) => {
    seen.push(url);
    return upstream().fetch(endpoint, init);
  };
  const r = getResolver({ endpoint: 'testnet', fetch, didlight: loaders.node });
  await resolveWith(r, controllers[0]);
  assert.ok(seen.every((u) => u === 'https://api-testnet.elastos.io/eid'), seen.join(' '));
});
