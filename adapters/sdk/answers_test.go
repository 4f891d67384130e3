package sdk

import (
	"strconv"
	"strings"
	"testing"
)

// Every piece an answerArena hands out keeps what it was given, whatever comes after it:
// strings across chunk boundaries and large ones, lists of strings and of nodes whose
// appends cannot reach their neighbours.
func TestAnswerArenaPiecesStayAsMade(t *testing.T) {
	var a answerArena
	var strs []string
	var want []string
	var lists [][]string
	var nodes [][]Node
	for i := 0; i < 2000; i++ {
		text := strings.Repeat(strconv.Itoa(i), 1+i%700) // up to ~2.8 KB, past a quarter chunk
		buf := []byte(text)
		strs = append(strs, a.string(buf))
		want = append(want, text)
		buf[0] = 'x' // the caller's bytes change after: the string must not
		l := a.list(1 + i%200)
		if len(l) != 1+i%200 || cap(l) != len(l) {
			t.Fatalf("list %d: len %d cap %d, want both %d", i, len(l), cap(l), 1+i%200)
		}
		for k := range l {
			if l[k] != "" {
				t.Fatalf("list %d handed out with %q at %d", i, l[k], k)
			}
			l[k] = strs[i]
		}
		lists = append(lists, append(l, "appended")) // past its capacity: a copy
		ns := a.nodeList(1 + i%150)
		if cap(ns) != len(ns) || ns[0] != (Node{}) || ns[len(ns)-1] != (Node{}) {
			t.Fatalf("node list %d: len %d cap %d, first %+v", i, len(ns), cap(ns), ns[0])
		}
		for k := range ns {
			ns[k] = Node{h: uint32(i)}
		}
		nodes = append(nodes, append(ns, Node{h: 1 << 31})) // past its capacity: a copy
	}
	for i, ns := range nodes {
		for _, n := range ns[:len(ns)-1] {
			if n.h != uint32(i) {
				t.Fatalf("node list %d changed: %+v", i, n)
			}
		}
	}
	for i := range strs {
		if strs[i] != want[i] {
			t.Fatalf("string %d changed: %.20q, want %.20q", i, strs[i], want[i])
		}
		for k, s := range lists[i][:len(lists[i])-1] {
			if s != want[i] {
				t.Fatalf("list %d element %d changed: %.20q", i, k, s)
			}
		}
	}
	if a.string(nil) != "" {
		t.Error("an empty answer is not the empty string")
	}
}
