// Assertions made with the SDK's own verification.

import assert from 'node:assert/strict';
import { VerificationEventListener } from '@elastosfoundation/did-js-sdk';

/**
 * assertValid checks a resolved document the way an app would before
 * trusting it: genuine (its proofs), not expired, not deactivated, valid
 * (all of that, and its controllers' too). Failures carry the SDK's own
 * account of what it checked.
 */
export async function assertValid(doc) {
  assert.ok(doc, 'the DID resolved to nothing');
  const listener = VerificationEventListener.getDefault('  ', '- ', '* ');
  assert.ok(doc.isGenuine(listener), `${doc.getSubject()} is not genuine:\n${listener}`);
  assert.equal(doc.isExpired(), false, `${doc.getSubject()} is expired`);
  assert.equal(await doc.isDeactivated(), false, `${doc.getSubject()} is deactivated`);
  listener.reset();
  assert.ok(await doc.isValid(listener), `${doc.getSubject()} is not valid:\n${listener}`);
}

/**
 * publishedOps checks that every transaction of a biography is signed as
 * the SDK requires (IDChainRequest.isValid: a genuine signer document, a
 * key allowed for the operation, the signature) and returns their
 * operations' names, newest first.
 */
export async function publishedOps(bio) {
  const ops = [];
  for (const tx of bio.getAllTransactions()) {
    const req = tx.getRequest();
    assert.ok(await req.isValid(), `${tx.getTransactionId()} (${req.getOperation()}) does not verify`);
    ops.push(String(req.getOperation()));
  }
  return ops;
}
