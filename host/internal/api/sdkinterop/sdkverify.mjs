// The official SDK's own verification of a resolve result, as the second
// implementation wasm/js/bench.mjs times next to didlight's loaders:
//
//   cd wasm/js && node bench.mjs ../../host/internal/api/sdkinterop/sdkverify.mjs
//
// (make sdkbench does that). For a history, which the SDK hands back
// unverified (DID.resolveBiography), an app checks each transaction the
// way the SDK checks the one it resolves: the request is valid
// (IDChainRequest.isValid: its document genuine, its proofs verified, the
// signing key allowed, the request's signature), the DID is not
// deactivated, and the latest document has not expired at `now`.
// Verification never touches the network: the backend it initializes
// refuses every request.

import { DIDBackend, DIDBiography, DIDBiographyStatus } from '@elastosfoundation/did-js-sdk';

const offline = {
  resolve() { throw new Error('sdkverify: verification asked the network'); },
  createIdTransaction() { throw new Error('sdkverify: verification tried to publish'); },
};

/** setup returns a verifier of resolve results (text) at time now (ISO). */
export async function setup() {
  DIDBackend.initialize(offline);
  return verify;
}

/** verify throws unless the SDK verifies every transaction of result at now. */
export async function verify(resultText, now) {
  const bio = DIDBiography.parse(resultText);
  if (!bio.getStatus().equals(DIDBiographyStatus.VALID)) {
    throw new Error(`sdkverify: ${bio.getDid()} has status ${bio.getStatus()}`);
  }
  const txs = bio.getAllTransactions();
  for (const tx of txs) {
    if (!(await tx.getRequest().isValid())) {
      throw new Error(`sdkverify: transaction ${tx.getTransactionId()} does not verify`);
    }
  }
  const latest = txs[0].getRequest().getDocument();
  if (latest.getExpires() <= new Date(now)) {
    throw new Error(`sdkverify: ${bio.getDid()} expired ${latest.getExpires().toISOString()}, before ${now}`);
  }
}
