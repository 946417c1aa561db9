package eidsync

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/didlight/didlight/host/internal/backoff"
)

// Defaults of Config.
const (
	DefaultBatch       = 100         // blocks a request
	DefaultInFlight    = 4           // requests in flight
	DefaultApplyBlocks = 4096        // blocks held before they are applied
	DefaultPoll        = time.Second // EID makes a block every 5 s or more
	DefaultReportEvery = time.Second
	// DefaultFailureWait is the wait after an upstream failure, doubled
	// after each further one up to MaxFailureWait.
	DefaultFailureWait = time.Second
	MaxFailureWait     = 30 * time.Second
)

// Config configures a Scanner. Its zero values mean the defaults.
type Config struct {
	Upstream Upstream
	Sink     Sink
	// From is the first block scanned when the sink is empty (0: genesis).
	From uint64
	// Contract is the DID contract's address (0x and 40 hex digits); ""
	// takes the one built in for the upstream's chain id (ContractOf).
	Contract string
	// Batch is how many blocks, or receipts, one request asks for;
	// InFlight how many requests of blocks are out at once. Every request
	// also spends the upstream client's budget.
	Batch, InFlight int
	// ApplyBlocks is how many blocks are held, at most, before they are
	// handed to the sink in one Apply. Fewer are applied when the scan
	// reaches the upstream's head.
	ApplyBlocks int
	// Poll is how often the upstream's head is asked once reached.
	Poll time.Duration
	// Report, if set, hears the progress: at most every ReportEvery while
	// scanning, and whenever the scan reaches the head, fails or follows
	// a reorganisation. It is called from Run's goroutine.
	Report      func(Progress)
	ReportEvery time.Duration
	// FailureWait is the first wait after an upstream failure.
	FailureWait time.Duration
}

// Scanner feeds a Sink the DID operations of an EID chain's blocks, in
// order, from the sink's head on, following the upstream's head.
type Scanner struct {
	up                             Upstream
	sink                           Sink
	from                           uint64
	contract                       string
	contractBits                   [3]uint16 // the contract's bits in a header bloom
	batch, inFlight, applyBlocks   int
	poll, reportEvery, failureWait time.Duration
	report                         func(Progress)

	mu       sync.Mutex // guards p
	p        Progress
	start    time.Time
	samples  []sample // (time, blocks) at recent applies, for the rate
	reported time.Time
}

type sample struct {
	at     time.Time
	blocks uint64
}

// New returns a Scanner for cfg. It sends nothing until Run.
func New(cfg Config) (*Scanner, error) {
	if cfg.Upstream == nil || cfg.Sink == nil {
		return nil, errors.New("eidsync: Config needs an Upstream and a Sink")
	}
	if cfg.Batch < 0 || cfg.InFlight < 0 || cfg.ApplyBlocks < 0 || cfg.Poll < 0 || cfg.ReportEvery < 0 || cfg.FailureWait < 0 {
		return nil, fmt.Errorf("eidsync: negative setting in %+v", cfg)
	}
	contract := strings.ToLower(cfg.Contract)
	if contract != "" && (len(contract) != 42 || !strings.HasPrefix(contract, "0x") || strings.Trim(contract[2:], "0123456789abcdef") != "") {
		return nil, fmt.Errorf("eidsync: DID contract %.60q is not 0x and 40 hex digits", cfg.Contract)
	}
	s := &Scanner{
		up: cfg.Upstream, sink: cfg.Sink, from: cfg.From, contract: contract,
		batch:       or(cfg.Batch, DefaultBatch),
		inFlight:    or(cfg.InFlight, DefaultInFlight),
		applyBlocks: or(cfg.ApplyBlocks, DefaultApplyBlocks),
		poll:        or(cfg.Poll, DefaultPoll),
		reportEvery: or(cfg.ReportEvery, DefaultReportEvery),
		failureWait: or(cfg.FailureWait, DefaultFailureWait),
		report:      cfg.Report,
	}
	if contract != "" {
		s.contractBits = addressBits(contract)
	}
	return s, nil
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// SinkError is what a scan cannot go on from by asking again: a failure
// of the sink, a reorganisation the sink cannot follow, or a chain with no
// DID contract built in and none given. Run returns it, where it retries
// the upstream's failures.
type SinkError struct{ Err error }

func (e *SinkError) Error() string { return "eidsync: " + e.Err.Error() }
func (e *SinkError) Unwrap() error { return e.Err }

// Run scans until ctx ends, and returns its cause, or until the sink
// fails (a *SinkError). It scans from the sink's head + 1 (Config.From
// when the sink is empty) to the upstream's head, then follows the head.
// An upstream that fails is asked again after a wait that grows with each
// failure; Progress.Err says why meanwhile. Blocks not yet applied when
// ctx ends are dropped: the sink holds whole Applies only, and the next
// Run continues from its head.
func (s *Scanner) Run(ctx context.Context) error {
	s.mu.Lock()
	s.start = time.Now()
	s.mu.Unlock()
	failures := 0
	for {
		err := s.chooseContract(ctx)
		more := false
		if err == nil {
			more, err = s.pass(ctx)
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if se, ok := errors.AsType[*SinkError](err); ok {
			return se
		}
		wait := s.poll
		if err != nil {
			wait = backoff.Delay(s.failureWait, MaxFailureWait, failures)
			failures++
		} else {
			failures = 0
		}
		s.update(func(p *Progress) { p.Err = err }, true)
		if more && err == nil {
			continue
		}
		if sleep(ctx, wait) != nil {
			return context.Cause(ctx)
		}
	}
}

// chooseContract asks the upstream's chain id, the first time, when no
// contract was given.
func (s *Scanner) chooseContract(ctx context.Context) error {
	if s.contract != "" {
		return nil
	}
	id, err := s.up.ChainID(ctx)
	if err != nil {
		return err
	}
	c, ok := ContractOf(id)
	if !ok {
		return &SinkError{fmt.Errorf("chain id %d has no DID contract built in: give its address", id)}
	}
	s.contract, s.contractBits = c, addressBits(c)
	return nil
}

// pass scans from the sink's head to the upstream's, and applies what it
// read. more says a pass is due at once (after a reorganisation).
func (s *Scanner) pass(ctx context.Context) (more bool, err error) {
	head, err := s.up.BlockNumber(ctx)
	if err != nil {
		return false, err
	}
	s.update(func(p *Progress) { p.Head = head }, false)
	next, parent, linked := s.from, Hash{}, false
	if n, h, ok := s.sink.Head(); ok {
		next, parent, linked = n+1, h, true
		s.update(func(p *Progress) { p.Synced, p.HaveSynced = n, true }, false)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a := applier{s: s}
	var queue []chan fetched
	for {
		for next <= head && len(queue) < s.inFlight {
			n := int(min(uint64(s.batch), head-next+1))
			ch := make(chan fetched, 1)
			go func(from uint64) { ch <- s.fetch(ctx, from, n) }(next)
			queue = append(queue, ch)
			next += uint64(n)
		}
		if len(queue) == 0 {
			return false, a.flush(ctx)
		}
		f := <-queue[0]
		queue = queue[1:]
		if f.err != nil {
			return false, errors.Join(f.err, a.flush(ctx))
		}
		for _, b := range f.blocks {
			if linked && b.Parent != parent {
				if err := a.flush(ctx); err != nil {
					return false, err
				}
				return true, s.reorg(ctx, b.Number-1)
			}
			parent, linked = b.Hash, true
			b.UpstreamHead = head
		}
		a.add(f)
		if f.short {
			return false, a.flush(ctx) // the upstream's head went back: ask it again
		}
		if len(a.blocks) >= s.applyBlocks {
			if err := a.flush(ctx); err != nil {
				return false, err
			}
		}
	}
}

// applier holds blocks read and not yet applied.
type applier struct {
	s                     *Scanner
	blocks                []*Block
	ops, refused, creates int
}

func (a *applier) add(f fetched) {
	a.blocks = append(a.blocks, f.blocks...)
	for _, b := range f.blocks {
		a.ops += len(b.Ops)
	}
	a.refused += f.refused
	a.creates += f.creates
}

// flush applies the blocks held, in one Apply.
func (a *applier) flush(ctx context.Context) error {
	if len(a.blocks) == 0 {
		return nil
	}
	if err := a.s.sink.Apply(ctx, a.blocks); err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return &SinkError{fmt.Errorf("applying blocks %d to %d: %w", a.blocks[0].Number, a.blocks[len(a.blocks)-1].Number, err)}
	}
	last := a.blocks[len(a.blocks)-1].Number
	n := uint64(len(a.blocks))
	a.s.update(func(p *Progress) {
		p.Synced, p.HaveSynced = last, true
		p.Blocks += n
		p.Ops += uint64(a.ops)
		p.Refused += uint64(a.refused)
		p.DIDs += uint64(a.creates)
	}, false)
	*a = applier{s: a.s}
	return nil
}

// reorg finds where the upstream's branch leaves the sink's, at or below
// number, and rolls the sink back to it.
func (s *Scanner) reorg(ctx context.Context, number uint64) error {
	const window = 16
	for top := number; ; {
		low := top - min(top, window-1)
		numbers := make([]uint64, top-low+1)
		for i := range numbers {
			numbers[i] = low + uint64(i)
		}
		bs, err := s.up.Blocks(ctx, numbers, false)
		if err != nil {
			return err
		}
		for i := len(bs) - 1; i >= 0; i-- {
			n := low + uint64(i)
			if bs[i] == nil {
				continue // past the upstream's head
			}
			have, ok := s.sink.HashAt(n)
			if !ok {
				return &SinkError{fmt.Errorf("the upstream left the sink's branch below block %d, which the sink keeps no hash of", n+1)}
			}
			if have.String() != bs[i].Hash {
				continue
			}
			if err := s.sink.Rollback(n); err != nil {
				return &SinkError{fmt.Errorf("rolling back to block %d: %w", n, err)}
			}
			s.update(func(p *Progress) {
				p.Reorgs++
				p.RolledBack = number - n
				p.Synced = n
			}, true)
			return nil
		}
		if low == 0 {
			return &SinkError{fmt.Errorf("the upstream shares no block with the sink from %d down to %d", number, low)}
		}
		top = low - 1
	}
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
