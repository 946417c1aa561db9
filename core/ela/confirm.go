package ela

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/didlight/didlight/core/keys"
)

// Confirm is a DPoS block confirmation: a sponsor's signed proposal of a
// block and the arbiters' signed votes on it (Elastos.ELA
// core/types/payload/confirm.go, dposproposal.go, dposproposalvote.go).
//
// On the wire: the proposal (sponsor varbytes, block hash, u32 view offset,
// signature varbytes), a u64 vote count, then each vote (the proposal's
// hash, signer varbytes, accept byte, signature varbytes). The proposal
// signature covers the proposal without it; a vote's covers the vote
// without it. Every vote must be for this confirm's proposal.
type Confirm struct {
	Sponsor    keys.PublicKey
	BlockHash  Hash
	ViewOffset uint32
	Signature  keys.Signature // the sponsor's, over the proposal
	Votes      []Vote
}

// Vote is an arbiter's vote on a Confirm's proposal.
type Vote struct {
	Signer    keys.PublicKey
	Accept    bool
	Signature keys.Signature
}

// MaxConfirmVotes is this package's sanity cap on the votes of one confirm;
// the chain has a few dozen arbiters.
const MaxConfirmVotes = 1024

const minVoteSize = HashSize + 1 + keys.PublicKeySize + 1 + 1 + keys.SignatureSize

// NewConfirm returns a confirm of blockHash proposed and signed by sponsor,
// with no votes yet.
func NewConfirm(sponsor *keys.PrivateKey, blockHash Hash, viewOffset uint32) *Confirm {
	c := &Confirm{Sponsor: sponsor.Public(), BlockHash: blockHash, ViewOffset: viewOffset}
	c.Signature = sponsor.SignData(c.proposalBytes())
	return c
}

// AddVote appends signer's signed vote on the proposal.
func (c *Confirm) AddVote(signer *keys.PrivateKey, accept bool) {
	v := Vote{Signer: signer.Public(), Accept: accept}
	v.Signature = signer.SignData(c.voteBytes(v))
	c.Votes = append(c.Votes, v)
}

// ProposalHash returns the hash of the proposal, which every vote names.
func (c *Confirm) ProposalHash() Hash { return hashOf(c.proposalBytes()) }

// Verify checks the sponsor's signature and every vote's, using v. Which
// keys count as arbiters, and how many accepting votes make a block final,
// is chain state the caller checks. Failures wrap [ErrSignature].
func (c *Confirm) Verify(v keys.Verifier) error {
	if !v.Verify(c.Sponsor, sha256.Sum256(c.proposalBytes()), c.Signature) {
		return sigErrorf("confirm of block %s: the sponsor's signature does not verify", c.BlockHash)
	}
	for i, vote := range c.Votes {
		if !v.Verify(vote.Signer, sha256.Sum256(c.voteBytes(vote)), vote.Signature) {
			return sigErrorf("confirm of block %s: vote %d by %s does not verify", c.BlockHash, i, vote.Signer)
		}
	}
	return nil
}

func (c *Confirm) proposalBytes() []byte {
	w := &writer{b: make([]byte, 0, 1+keys.PublicKeySize+HashSize+4)}
	c.encodeProposal(w)
	return w.b
}

func (c *Confirm) encodeProposal(w *writer) {
	w.varBytes(c.Sponsor.Bytes())
	w.hash(c.BlockHash)
	w.u32(c.ViewOffset)
}

func (c *Confirm) voteBytes(v Vote) []byte {
	w := &writer{b: make([]byte, 0, HashSize+2+keys.PublicKeySize)}
	w.hash(c.ProposalHash())
	w.varBytes(v.Signer.Bytes())
	w.boolean(v.Accept)
	return w.b
}

// Bytes returns the confirm's encoding.
func (c *Confirm) Bytes() []byte {
	w := &writer{b: make([]byte, 0, 200+len(c.Votes)*minVoteSize)}
	c.encodeProposal(w)
	w.varBytes(c.Signature[:])
	w.u64(uint64(len(c.Votes)))
	for _, v := range c.Votes {
		w.raw(c.voteBytes(v))
		w.varBytes(v.Signature[:])
	}
	return w.b
}

// ParseConfirm decodes a confirm. Keys must be valid compressed P-256
// points, signatures 64 bytes, accept bytes 0 or 1, and every vote must name
// the proposal's hash.
func ParseConfirm(b []byte) (*Confirm, error) {
	r := newReader("confirm", b)
	c := &Confirm{
		Sponsor:    readKey(r, "sponsor"),
		BlockHash:  r.hash("blockhash"),
		ViewOffset: r.u32("viewoffset"),
	}
	c.Signature = readSignature(r, "signature")
	at := r.off
	n := r.checkCount("votes", at, r.u64("votes"), minVoteSize, MaxConfirmVotes)
	proposal := c.ProposalHash()
	c.Votes = make([]Vote, 0, n)
	for i := 0; i < n && !r.failed(); i++ {
		r.enterIndex("votes", i)
		at := r.off
		if h := r.hash("proposalhash"); h != proposal && !r.failed() {
			r.failf("proposalhash", at, ErrInvalid, "vote for proposal %s, not this confirm's %s", h, proposal)
		}
		v := Vote{Signer: readKey(r, "signer"), Accept: r.boolean("accept")}
		v.Signature = readSignature(r, "signature")
		c.Votes = append(c.Votes, v)
		r.leave()
	}
	if err := r.end(); err != nil {
		return nil, err
	}
	return c, nil
}

func readKey(r *reader, field string) keys.PublicKey {
	at := r.off
	b := r.varBytes(field, keys.PublicKeySize)
	if r.failed() {
		return keys.PublicKey{}
	}
	pub, err := keys.ParsePublicKey(b)
	if err != nil {
		r.failf(field, at, ErrInvalid, "%v", err)
	}
	return pub
}

func readSignature(r *reader, field string) keys.Signature {
	at := r.off
	b := r.varBytes(field, keys.SignatureSize)
	if r.failed() {
		return keys.Signature{}
	}
	var sig keys.Signature
	if len(b) != keys.SignatureSize {
		r.failf(field, at, ErrInvalid, "signature of %d bytes, want %d", len(b), keys.SignatureSize)
	}
	copy(sig[:], b)
	return sig
}

// ConfirmJSON is the REST API's confirm object (interfaces spec, Confirm
// object; Elastos.ELA servers/common.go ConfirmInfo), plus the signatures,
// so that the binary form can be rebuilt from it.
type ConfirmJSON struct {
	BlockHash  string     `json:"blockhash"`
	Sponsor    string     `json:"sponsor"`
	ViewOffset uint32     `json:"viewoffset"`
	Signature  string     `json:"signature"`
	Votes      []VoteJSON `json:"votes"`
}

// VoteJSON is an element of ConfirmJSON.Votes.
type VoteJSON struct {
	Signer    string `json:"signer"`
	Accept    bool   `json:"accept"`
	Signature string `json:"signature"`
}

// JSON builds the confirm's REST object: keys and signatures in hex, the
// block hash reversed.
func (c *Confirm) JSON() ConfirmJSON {
	j := ConfirmJSON{
		BlockHash:  c.BlockHash.String(),
		Sponsor:    hex.EncodeToString(c.Sponsor.Bytes()),
		ViewOffset: c.ViewOffset,
		Signature:  hex.EncodeToString(c.Signature[:]),
		Votes:      make([]VoteJSON, len(c.Votes)),
	}
	for i, v := range c.Votes {
		j.Votes[i] = VoteJSON{Signer: hex.EncodeToString(v.Signer.Bytes()), Accept: v.Accept, Signature: hex.EncodeToString(v.Signature[:])}
	}
	return j
}

// Confirm rebuilds the confirm from its REST object.
func (j *ConfirmJSON) Confirm() (*Confirm, error) {
	c, err := j.confirm()
	return c, named("confirm JSON", err)
}

func (j *ConfirmJSON) confirm() (*Confirm, error) {
	c := &Confirm{ViewOffset: j.ViewOffset, Votes: make([]Vote, len(j.Votes))}
	var errs [3]error
	c.BlockHash, errs[0] = hashField("blockhash", j.BlockHash)
	c.Sponsor, errs[1] = keyField("sponsor", j.Sponsor)
	c.Signature, errs[2] = signatureField("signature", j.Signature)
	if err := firstError(errs[:]...); err != nil {
		return nil, err
	}
	for i, v := range j.Votes {
		var err error
		c.Votes[i].Accept = v.Accept
		if c.Votes[i].Signer, err = keyField("signer", v.Signer); err == nil {
			c.Votes[i].Signature, err = signatureField("signature", v.Signature)
		}
		if err != nil {
			return nil, within(indexed("votes", i), err)
		}
	}
	return c, nil
}

func keyField(field, s string) (keys.PublicKey, error) {
	b, err := hexField(field, s)
	if err != nil {
		return keys.PublicKey{}, err
	}
	pub, err := keys.ParsePublicKey(b)
	if err != nil {
		return pub, fieldErrorf(field, ErrInvalid, "%v", err)
	}
	return pub, nil
}

func signatureField(field, s string) (keys.Signature, error) {
	b, err := hexField(field, s)
	if err != nil {
		return keys.Signature{}, err
	}
	sig, err := keys.ParseSignature(b)
	if err != nil {
		return sig, fieldErrorf(field, ErrInvalid, "%v", err)
	}
	return sig, nil
}
