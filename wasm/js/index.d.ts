// Types of the didlight package: the loader (node.js in Node, browser.js
// elsewhere), its calls (api.js, endpoint.js) and the did-resolver method
// (resolver.js). Written by hand; the tests check a consumer against them
// with tsc --noEmit.

/** A JSON object as the module reads or writes it. */
export type JSONObject = { [key: string]: unknown };

/** A time: a Date, milliseconds since 1970, or an ISO 8601 text. */
export type Time = Date | number | string;

/**
 * A failed call: the module's error object, whose members are copied onto
 * the error. type: "input", "rule", "verify", "document", "syntax",
 * "condition", "decode", "need", ...
 */
export class DidlightError extends Error {
  name: 'DidlightError';
  type: string;
  rule?: string;
  detail?: string;
  index?: number;
  txid?: string;
  offset?: number;
  field?: string;
  expected?: string;
  found?: string;
  operator?: string;
  path?: string;
  dids?: string[];
  txids?: string[];
  /** The endpoint's result that was refused (the endpoint calls). */
  answer?: unknown;
}

/** An endpoint that could not be asked, or did not answer as asked. */
export class EndpointError extends Error {
  name: 'EndpointError';
  url?: string;
  method?: string;
  code?: number;
  data?: unknown;
}

/** What a verification checked, took on the endpoint's word, and what nobody checked (docs/eid.md). */
export interface Report {
  outcome: 'verified' | 'migrated' | 'nothing to verify';
  checked: string[];
  trusted: string[];
  unchecked: string[];
}

/** The chain tip whose time expiry is judged at. */
export interface Tip {
  number?: number;
  time: Date;
  source: 'block' | 'given' | 'clock';
}

/** What verification asked for beside the answer, as the endpoint gave it. */
export interface Fetched {
  dids: { did: string; answer: string }[];
  transactions: string[];
}

export interface EndpointOptions {
  /** The JSON-RPC URL of an EID node or a didlight node. */
  endpoint: string;
  /** The chain's id (22 mainnet, 23 testnet); asked with eth_chainId when left out. */
  chainId?: number;
  /** The time to judge expiry at; the endpoint's head block's when left out. */
  now?: Time;
  fetch?: typeof fetch;
  /** Milliseconds to wait for each answer (default 30000). */
  timeout?: number;
}

/** A resolvedid answer, verified (verifyResolveResult). */
export interface VerifiedResult {
  did: string;
  status: number;
  statusName: string;
  txid?: string;
  document?: JSONObject;
  complete: boolean;
}

/** An EID did_resolveDID answer, verified. */
export interface VerifiedEidDID {
  did: string;
  /** EID's status: 0 valid, 2 deactivated, 3 not found. */
  status: 0 | 2 | 3;
  statusName: string;
  txid?: string;
  document?: JSONObject;
  complete: boolean;
  expired: boolean;
  migrated?: string[];
  report: Report;
}

export interface VerifiedDID extends VerifiedEidDID {
  answer: JSONObject;
  chainId: number;
  tip: Tip;
  fetched: Fetched;
}

export interface VerifiedEidCredential {
  id: string;
  status: 0 | 2 | 3;
  statusName: string;
  txid?: string;
  credential?: JSONObject;
  revokedBy?: string;
  shown: number;
  report: Report;
}

export interface VerifiedCredential extends VerifiedEidCredential {
  answer: JSONObject;
  chainId: number;
  tip: Tip;
  fetched: Fetched;
}

/** A W3C DID Resolution or dereferencing answer, as the node's /1.0/identifiers gives it. */
export interface W3CAnswer {
  status: number;
  contentType?: string;
  location?: string;
  body?: JSONObject;
  report?: Report;
}

/** The answers an EID verification fetched beside its answer ("need" errors). */
export interface EidInputs {
  now?: Time;
  chainId?: number;
  dids?: { did: string; answer: string | JSONObject }[];
  transactions?: (string | JSONObject)[];
}

export interface W3COptions {
  /** The media type asked for (default: the resolution result). */
  accept?: string;
  /** Resolution options: an object or a query string (versionId, versionTime, ...). */
  options?: string | Record<string, string>;
}

/** The module, loaded: each call runs in it. */
export interface Didlight {
  parseDid(did: string): Promise<{ did: string; id: string; customized: boolean }>;
  parseDocument(document: string | JSONObject, opts?: { verify?: boolean; documents?: (string | JSONObject)[] }): Promise<{ did: string; expires: string; customized: boolean; document: JSONObject }>;
  verifyResolveResult(result: string | JSONObject, opts?: { now?: Time; documents?: (string | JSONObject)[] }): Promise<VerifiedResult>;
  resolveW3C(result: string | JSONObject, didUrl: string, opts?: W3COptions & { now?: Time; documents?: (string | JSONObject)[] }): Promise<W3CAnswer>;
  verifyEidDid(answer: string | JSONObject, opts: EidInputs & { did: string; all?: boolean }): Promise<VerifiedEidDID>;
  verifyEidCredential(answer: string | JSONObject, opts: EidInputs & { id: string; issuer?: string }): Promise<VerifiedEidCredential>;
  verifyEidCredentialList(answer: string | JSONObject, opts: { did: string; skip?: number; limit?: number }): Promise<{ did: string; ids: string[]; report: Report }>;
  resolveW3CEid(answer: string | JSONObject | undefined, didUrl: string, opts?: W3COptions & EidInputs): Promise<W3CAnswer>;
  statusOf(history: string | unknown[], opts?: { tip?: Time }): Promise<{ status: number; statusName: string }>;
  match(condition: JSONObject, documents: (string | JSONObject)[], opts?: { view?: boolean }): Promise<boolean[]>;

  /** The endpoint's head block, whose time the endpoint calls judge expiry at. */
  head(url: string, opts?: { fetch?: typeof fetch; timeout?: number }): Promise<Tip>;
  resolveVerified(did: string, opts: EndpointOptions & { all?: boolean }): Promise<VerifiedDID>;
  resolveCredentialVerified(id: string, opts: EndpointOptions & { issuer?: string }): Promise<VerifiedCredential>;
  listCredentialsVerified(did: string, opts: { endpoint: string; skip?: number; limit?: number; fetch?: typeof fetch; timeout?: number }): Promise<{ did: string; ids: string[]; report: Report; answer: JSONObject }>;
  resolveW3CVerified(didUrl: string, opts: EndpointOptions & W3COptions): Promise<W3CAnswer & { chainId?: number; tip?: Tip; fetched?: Fetched }>;

  /** Any call of the module by its name (see wasm/abi), on an input object or JSON text. */
  call(name: string, input: string | JSONObject): Promise<unknown>;
  callRaw(name: string, input: string): string;
}

export interface LoadOptions {
  /** The module: a path or URL, its bytes, a Response (browsers) or a compiled module. Default: didlight.wasm beside the loader. */
  wasm?: string | URL | ArrayBuffer | Uint8Array | Response | WebAssembly.Module;
  /** Node only: false to let the module verify signatures with its own code. */
  hostCrypto?: boolean;
  /** The current document of a DID, for controllers an input does not list. */
  lookup?(did: string): string | JSONObject | null;
}

/** load instantiates the module and returns its calls. */
export function load(options?: LoadOptions): Promise<Didlight>;

/** The networks getResolver knows by name. */
export const networks: {
  mainnet: { endpoint: string; chainId: 22 };
  testnet: { endpoint: string; chainId: 23 };
};

export interface ResolverOptions {
  /** 'mainnet' (default), 'testnet', or the JSON-RPC URL of an EID node or a didlight node. */
  endpoint?: 'mainnet' | 'testnet' | (string & {});
  /** The chain's id: known for the named networks, else asked once. */
  chainId?: number;
  /** A loaded module to use, instead of loading one on the first resolve. */
  didlight?: Didlight | Promise<Didlight>;
  /** The module, as load takes it. */
  wasm?: LoadOptions['wasm'];
  /** Results kept, least recently used dropped (default 256; 0 keeps none). */
  cacheSize?: number;
  /** Milliseconds a head block is taken as current (default 4000). */
  headTtl?: number;
  fetch?: typeof fetch;
  timeout?: number;
}

/** What didResolutionMetadata.verification says. */
export interface Verification {
  verifiedBy: 'didlight module';
  checked?: string[];
  trusted?: string[];
  unchecked?: string[];
  /** 'refused' when the answer did not verify; then type, rule, index, txid say why. */
  outcome: Report['outcome'] | 'refused';
  endpoint: string;
  chainId?: number;
  head?: { number?: number; time: string; source: Tip['source'] };
  fetched?: { dids: string[]; transactions: number };
  type?: string;
  rule?: string;
  index?: number;
  txid?: string;
}

/** did-resolver's result, with what didlight adds to its metadata. */
export interface ElastosResolutionResult {
  didResolutionMetadata: {
    contentType?: string;
    error?: 'invalidDid' | 'notFound' | 'representationNotSupported' | 'unsupportedDidMethod' | 'invalidOptions' | 'invalidDidUrl' | 'featureNotSupported' | 'notVerified' | 'internalError';
    problemDetails?: { type: string; title?: string; detail?: string };
    verification?: Verification;
    [key: string]: unknown;
  };
  didDocument: ({ id: string; [key: string]: any }) | null;
  didDocumentMetadata: {
    created?: string;
    updated?: string;
    deactivated?: boolean;
    versionId?: string;
    nextUpdate?: string;
    nextVersionId?: string;
    [key: string]: any;
  };
}

/** did-resolver's ParsedDID, as much as the method reads. */
export interface ParsedElastosDID {
  did: string;
  didUrl: string;
  method: string;
  id: string;
  params?: Record<string, string>;
  path?: string;
  query?: string;
  fragment?: string;
}

/** The method did-resolver calls: never rejects, errors are in didResolutionMetadata. */
export type ElastosResolver = (did: string, parsed: ParsedElastosDID, resolver: unknown, options: { accept?: string; [key: string]: any }) => Promise<ElastosResolutionResult>;

/** getResolver returns {elastos} for did-resolver's Resolver: new Resolver(getResolver()). */
export function getResolver(options?: ResolverOptions): { elastos: ElastosResolver };
