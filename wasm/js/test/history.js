// history makes the resolve result of a DID with a create and n-1 updates,
// signed through the module itself, as a node would return it (all=true,
// newest first). Operation i is in a block at start + i days.

import { createHash } from 'node:crypto';

// A test key: SHA-256 of a fixed text, a scalar in [1, n-1].
export const testKey = createHash('sha256').update('didlight js test key').digest('hex');

export const start = Date.parse('2024-06-01T00:00:00Z');
const day = 86400e3;

export const txid = (i) => createHash('sha256').update(`tx ${i}`).digest('hex');

export async function history(didlight, n, key = testKey) {
  const ops = [];
  let did;
  for (let i = 0; i < n; i++) {
    const at = start + i * day;
    const doc = await didlight.newDocument({
      key,
      expires: at + 365 * day,
      services: [{ id: '#s', type: 'Counter', serviceEndpoint: `https://example.com/${i}` }],
    });
    did = doc.did;
    const signed = await didlight.signDocument(doc.document, key, { created: at });
    const { request } = await didlight.signOperation(
      i === 0 ? { operation: 'create', document: signed.document, key } : { operation: 'update', document: signed.document, previousTxid: txid(i - 1), key },
    );
    ops.push({ txid: txid(i), timestamp: new Date(at).toISOString().replace('.000Z', 'Z'), operation: request });
  }
  return { did, status: 0, transaction: ops.reverse() };
}
