package core

import (
	"github.com/tokenfit/tokenfit/core/internal/chat"
)

// History pruning. Only history is ever pruned: the system prompt, knowledge,
// episodes, the current message and the directive are sections of their own.
//
// Messages are grouped into atoms that are kept or dropped whole: an
// assistant message that calls tools together with the tool messages that
// answer it (providers reject a tool result whose call is gone, and a call
// without its result). System and developer messages inside the history are
// pinned: never dropped.
//
// Pruning has hysteresis. Nothing is dropped while the history fits its
// budget (the high-water mark); once it does not, the oldest atoms go until
// it is down to a low-water mark. The kept history then starts at the same
// message for many turns, so the prompt's prefix stays byte-for-byte the same
// and provider prompt caches stay warm, instead of shifting by one message
// every turn. The start (keepFrom) goes back to the caller, who passes it in
// with the next turn's request.

// histItem is one history message as pruning sees it (the request side
// counts it: chat.HistoryItems).
type histItem = chat.HistoryItem

// pruneResult says which messages stay.
type pruneResult struct {
	keepFrom int   // the first unpinned message kept
	kept     []int // indices, ascending
	dropped  []int
}

// atomStarts returns the index of the first message of each atom, ascending.
func atomStarts(items []histItem) []int {
	var starts []int
	for i := range items {
		if i == 0 || items[i].Atom != items[i-1].Atom {
			starts = append(starts, i)
		}
	}
	return starts
}

// snapToAtom moves i forward to the start of an atom (or len(items)).
func snapToAtom(items []histItem, i int) int {
	for i > 0 && i < len(items) && items[i].Atom == items[i-1].Atom {
		i++
	}
	return i
}

// prune keeps the unpinned messages from keepFrom on while they fit in
// budget; otherwise it drops the oldest atoms until they fit in lowWater,
// never going below minKeep tokens of unpinned history. Tokens here exclude
// pinned messages, which are always kept and counted by the caller.
// Cost: O(len(items)).
func prune(items []histItem, keepFrom, budget, lowWater, minKeep int) pruneResult {
	start := snapToAtom(items, min(max(keepFrom, 0), len(items)))
	suffix := make([]int, len(items)+1) // unpinned tokens from i to the end
	for i := len(items) - 1; i >= 0; i-- {
		suffix[i] = suffix[i+1]
		if !items[i].Pinned {
			suffix[i] += items[i].Tokens
		}
	}
	if suffix[start] > budget {
		for _, a := range atomStarts(items) {
			if a <= start {
				continue
			}
			// Dropping the atoms before a leaves suffix[a].
			if suffix[a] < minKeep {
				break
			}
			start = a
			if suffix[a] <= lowWater {
				break
			}
		}
	}
	var r pruneResult
	r.keepFrom = start
	for i, it := range items {
		if i >= start || it.Pinned {
			r.kept = append(r.kept, i)
		} else {
			r.dropped = append(r.dropped, i)
		}
	}
	return r
}

// proposeSummary picks the oldest kept, unpinned atoms to summarize so that
// removing them frees at least want tokens, leaving the newest keepRecent
// messages alone. It returns their indices and tokens. Cost: O(len(items)).
func proposeSummary(items []histItem, keepFrom, want, keepRecent int) ([]int, int) {
	if want <= 0 {
		return nil, 0
	}
	limit := len(items) - keepRecent // messages at or after limit stay
	var idx []int
	freed := 0
	for _, a := range atomStarts(items) {
		if a < keepFrom {
			continue
		}
		end := a
		for end < len(items) && items[end].Atom == items[a].Atom {
			end++
		}
		if end > limit || freed >= want {
			break
		}
		for i := a; i < end; i++ {
			if !items[i].Pinned {
				idx = append(idx, i)
				freed += items[i].Tokens
			}
		}
	}
	return idx, freed
}
