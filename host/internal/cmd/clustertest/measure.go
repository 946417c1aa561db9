package main

import (
	"context"
	"fmt"
	"time"
)

// costRound is how long each side of a round of the cost phase is driven.
const costRound = 5 * time.Second

// report is what a run measured.
type report struct {
	Cost costReport
	Kill killReport
	Lag  lagReport // the link slowed: the follower falls behind
	Cut  lagReport // the link cut: the follower's upstream unreachable
}

// costReport compares one follower asked directly with the three behind
// the balancer, in the same run.
type costReport struct {
	Direct, Balanced []wrkResult
	// BalancerCPUPerRequest is HAProxy's CPU time over the balanced runs
	// divided by their requests.
	BalancerCPUPerRequest time.Duration
}

// killReport is the kill phase: follower2 killed under load and started
// again.
type killReport struct {
	Load          wrkResult
	Killed        time.Time
	Out           transition // when the balancer took it out; zero if it never did
	Restarted     time.Time
	Back          transition // when it was back in rotation; zero if never
	InWindow      int        // requests failed between the kill and its taking out
	OutsideWindow int        // requests failed at any other time, sockets that failed included
	Retried       int        // requests HAProxy sent again (to another follower) in the phase
}

// lagReport is a phase in which follower3's link to the producer fails
// under load, slowed or cut.
type lagReport struct {
	Load          wrkResult
	Failed        time.Time // when the link failed
	Out           transition
	ReadyWhileOut string // its /ready answer while out
	Restored      time.Time
	Back          transition
	ReadyWhenBack string
	Failures      int // requests that failed
	Retried       int
}

func (cl *cluster) measure(ctx context.Context) (*report, error) {
	dir := cl.logs
	var paths []string
	for _, d := range cl.testIdentifiers() {
		paths = append(paths, "/1.0/identifiers/"+d)
	}
	rep := &report{}
	balanced := "http://" + cl.addr
	var cpu time.Duration
	var requests int64
	for range cl.cfg.rounds {
		d, err := runWrk(ctx, dir, "http://"+cl.followers[0].rest, paths, cl.cfg.connections, costRound)
		if err != nil {
			return nil, err
		}
		before := cpuTime(cl.balancer.pid())
		b, err := runWrk(ctx, dir, balanced, paths, cl.cfg.connections, costRound)
		if err != nil {
			return nil, err
		}
		cpu += cpuTime(cl.balancer.pid()) - before
		requests += b.Requests
		rep.Cost.Direct, rep.Cost.Balanced = append(rep.Cost.Direct, d), append(rep.Cost.Balanced, b)
	}
	rep.Cost.BalancerCPUPerRequest = cpu / time.Duration(requests)

	var err error
	if rep.Kill, err = cl.killPhase(ctx, dir, paths); err != nil {
		return nil, err
	}
	slow := func(on bool) {
		cl.relay.setDelay(map[bool]time.Duration{true: slowLink}[on])
	}
	if rep.Lag, err = cl.linkPhase(ctx, dir, paths, slow, linkWait); err != nil {
		return nil, err
	}
	if rep.Cut, err = cl.linkPhase(ctx, dir, paths, cl.relay.setCut, cl.cfg.phase); err != nil {
		return nil, err
	}
	return rep, nil
}

// underLoad runs wrk through the balancer for d while act runs, and returns what wrk measured once both are done, and how many
// requests HAProxy sent again meanwhile.
func (cl *cluster) underLoad(ctx context.Context, dir string, paths []string, d time.Duration, act func() error) (wrkResult, int, error) {
	type result struct {
		r   wrkResult
		err error
	}
	retried := func() int {
		st, _ := showStat(cl.stats)
		return st["BACKEND"].retried
	}
	before := retried()
	done := make(chan result, 1)
	go func() {
		r, err := runWrk(ctx, dir, "http://"+cl.addr, paths, cl.cfg.connections, d)
		done <- result{r, err}
	}()
	actErr := act()
	res := <-done
	if actErr != nil {
		return res.r, 0, actErr
	}
	return res.r, retried() - before, res.err
}

// killPhase kills follower2 a quarter into the load, starts it again on
// its store at the half, and waits for the balancer to take it out and
// put it back.
func (cl *cluster) killPhase(ctx context.Context, dir string, paths []string) (killReport, error) {
	var k killReport
	f := cl.followers[1]
	w := watch(cl.stats)
	defer w.close()
	var ok bool
	var err error
	k.Load, k.Retried, err = cl.underLoad(ctx, dir, paths, cl.cfg.phase, func() error {
		time.Sleep(cl.cfg.phase / 4)
		k.Killed = time.Now()
		f.kill()
		k.Out, _ = w.until(f.name, "DOWN", k.Killed, cl.cfg.phase/4)
		time.Sleep(time.Until(k.Killed.Add(cl.cfg.phase / 4)))
		k.Restarted = time.Now()
		if err := cl.restart(ctx, f); err != nil {
			return err
		}
		k.Back, ok = w.until(f.name, "UP", k.Restarted, cl.cfg.phase/2)
		return nil
	})
	if err != nil {
		return k, err
	}
	if !ok {
		k.Back = transition{}
	}
	for _, fl := range k.Load.Failed {
		if !k.Out.At.IsZero() && !fl.At.Before(k.Killed) && !fl.At.After(k.Out.At) {
			k.InWindow++
		} else {
			k.OutsideWindow++
		}
	}
	k.OutsideWindow += int(k.Load.SockErrors)
	return k, nil
}

// slowLink is how long the slowed link holds each piece of an answer: at
// a block a second, a follower that waits this long for each falls
// behind by more than --ready-max-lag within seconds.
const slowLink = 3 * time.Second

// linkWait is how long a follower whose link is slowed may take to be out:
// slowed, it reads the upstream's height every round, each answer held
// slowLink, a block or two per round (about 15 s in the runs measured).
const linkWait = 30 * time.Second

// linkPhase makes follower3's link to the producer, which mines on, fail
// (fail(true)) until the balancer takes it out, for at most wait; then
// restores it and waits until it is put back.
func (cl *cluster) linkPhase(ctx context.Context, dir string, paths []string, fail func(bool), wait time.Duration) (lagReport, error) {
	var l lagReport
	f := cl.followers[2]
	w := watch(cl.stats)
	defer w.close()
	var err error
	// The load lasts the wait and the phase, to see the follower taken out
	// and put back under load.
	l.Load, l.Retried, err = cl.underLoad(ctx, dir, paths, wait+cl.cfg.phase, func() error {
		time.Sleep(cl.cfg.phase / 5)
		l.Failed = time.Now()
		fail(true)
		var out bool
		l.Out, out = w.until(f.name, "DOWN", l.Failed, wait)
		if out {
			_, l.ReadyWhileOut = cl.ready(f.rest)
		}
		l.Restored = time.Now()
		fail(false)
		if back, ok := w.until(f.name, "UP", l.Restored, cl.cfg.phase/2); ok {
			l.Back = back
			_, l.ReadyWhenBack = cl.ready(f.rest)
		}
		return nil
	})
	if err != nil {
		return l, err
	}
	l.Failures = len(l.Load.Failed) + int(l.Load.SockErrors)
	return l, nil
}

// problems are the checks the run failed.
func (r *report) problems() []string {
	var out []string
	k := r.Kill
	if k.Out.At.IsZero() {
		out = append(out, "the balancer never took the killed follower out")
	}
	if k.Back.At.IsZero() {
		out = append(out, "the balancer never put the restarted follower back")
	}
	if k.OutsideWindow > 0 {
		out = append(out, fmt.Sprintf("%d requests failed outside the check window of the kill", k.OutsideWindow))
	}
	for name, l := range map[string]lagReport{"slowed": r.Lag, "cut": r.Cut} {
		if l.Out.At.IsZero() {
			out = append(out, "the balancer never took the follower whose link was "+name+" out (does it serve /ready?)")
		}
		if l.Back.At.IsZero() {
			out = append(out, "the balancer never put the follower whose link was "+name+" back once it caught up")
		}
		if l.Failures > 0 {
			out = append(out, fmt.Sprintf("%d requests failed while the link was %s", l.Failures, name))
		}
	}
	return out
}
