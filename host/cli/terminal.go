package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// osTerminal is the process's terminal, if it has one.
type osTerminal struct{ stderr io.Writer }

func (osTerminal) isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (t osTerminal) readSecret(prompt string) ([]byte, error) {
	fd := int(os.Stdin.Fd())
	if !term.IsTerminal(fd) {
		return nil, usagef("no terminal to ask for it on: use --password-file FILE")
	}
	fmt.Fprint(t.stderr, prompt)
	b, err := term.ReadPassword(fd)
	fmt.Fprintln(t.stderr)
	return b, err
}

// readPassword returns the wallet password: the first line of file when
// one is named, else asked on the terminal (twice when confirm is set,
// for a new wallet).
func readPassword(e *env, file string, confirm bool) ([]byte, error) {
	if file != "" {
		return readSecretFile(file, "--password-file")
	}
	pw, err := e.term.readSecret("Wallet password: ")
	if err != nil {
		return nil, fmt.Errorf("password: %w", err)
	}
	if confirm {
		again, err := e.term.readSecret("Repeat the password: ")
		if err != nil {
			return nil, fmt.Errorf("password: %w", err)
		}
		if string(again) != string(pw) {
			return nil, usagef("the two passwords differ")
		}
	}
	if len(pw) == 0 {
		return nil, usagef("the password is empty")
	}
	return pw, nil
}

// readSecretFile returns the first line of a file holding a secret, without
// its line ending. An empty secret is refused.
func readSecretFile(name, flagName string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, usagef("%s: %v", flagName, err)
	}
	defer f.Close()
	line, err := bufio.NewReader(io.LimitReader(f, 1<<16)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, usagef("%s %s: %v", flagName, name, err)
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return nil, usagef("%s %s: the first line is empty", flagName, name)
	}
	return []byte(line), nil
}

// spinner shows that the command waits, on a terminal only; elsewhere it
// draws nothing, so that logs and pipes stay clean.
type spinner struct {
	stop chan struct{}
	done sync.WaitGroup
}

// spin starts a spinner with msg on w when w is a terminal. Call the
// returned spinner's end once the wait is over.
func spin(e *env, w io.Writer, msg string) *spinner {
	s := &spinner{stop: make(chan struct{})}
	if !e.term.isTerminal(w) {
		return s
	}
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		frames := `|/-\`
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			fmt.Fprintf(w, "\r%c %s", frames[i%len(frames)], msg)
			select {
			case <-s.stop:
				fmt.Fprintf(w, "\r%s\r", strings.Repeat(" ", len(msg)+2))
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// end stops the spinner and clears its line.
func (s *spinner) end() {
	close(s.stop)
	s.done.Wait()
}
