package didreads

import "github.com/didlight/didlight/host/internal/answers"

// AnswerCounts returns how many answers the reads found kept for the tip,
// and how many they built: for a node's metrics.
func (r *Reads) AnswerCounts() answers.Counts { return r.cache.Counts() }
