// A synthetic EID node for the loader's tests: a fetch that answers from
// eid-fixture.json (made by wasm/js TestEIDFixture, not recorded).

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

export const fixture = JSON.parse(await readFile(new URL('./eid-fixture.json', import.meta.url), 'utf8'));

/** canonical writes a value with object members sorted, as Go writes the fixture's params. */
function canonical(v) {
  if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
  if (v !== null && typeof v === 'object') {
    return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}';
  }
  return JSON.stringify(v);
}

export const endpoint = 'https://eid.example/rpc';

/**
 * upstream is a fetch answering as an EID node from the fixture. change,
 * if given, rewrites a response object before it is sent: ({method,
 * params, id}, response) → response, or a Response to send as it is.
 * Requests that are not in the fixture get method-not-found for methods it
 * lacks, else a JSON-RPC error. asked lists the requests.
 */
export function upstream(change = (req, resp) => resp) {
  const answers = new Map(fixture.answers.map((a) => [a.method + ' ' + canonical(a.params), a.result]));
  const methods = new Set(fixture.answers.map((a) => a.method));
  const asked = [];
  const fetch = async (url, init) => {
    assert.equal(url, endpoint);
    assert.equal(init.method, 'POST');
    assert.equal(init.headers['Content-Type'], 'application/json');
    const req = JSON.parse(init.body);
    asked.push(req);
    const key = req.method + ' ' + canonical(req.params);
    let resp = { jsonrpc: '2.0', id: req.id, result: structuredClone(answers.get(key)) };
    if (!answers.has(key)) {
      const error = methods.has(req.method) ? { code: -32000, message: `no answer to ${key}` } : { code: -32601, message: `the method ${req.method} does not exist/is not available` };
      resp = { jsonrpc: '2.0', id: req.id, error };
    }
    resp = change(req, resp);
    return resp instanceof Response ? resp : new Response(JSON.stringify(resp) + '\n', { headers: { 'Content-Type': 'application/json' } });
  };
  return { fetch, asked };
}

