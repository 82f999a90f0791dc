package planparse

import "container/heap"

// Order returns the tasks in execution order: every task after the tasks it
// depends on, and otherwise in file order (among the tasks that are ready,
// the earliest in the file goes first). It assumes Err() == nil; tasks left
// over by a cycle are appended in file order rather than dropped.
func (p *Plan) Order() []*Task {
	n := len(p.Tasks)
	index := make(map[TaskID]int, n)
	for i, t := range p.Tasks {
		if _, dup := index[t.ID]; !dup {
			index[t.ID] = i
		}
	}
	waiting := make([]int, n)
	users := make([][]int, n)
	for i, t := range p.Tasks {
		seen := map[int]bool{}
		for _, d := range t.DependsOn {
			j, ok := index[d]
			if !ok || j == i || seen[j] {
				continue
			}
			seen[j] = true
			waiting[i]++
			users[j] = append(users[j], i)
		}
	}
	ready := &intHeap{}
	for i := range p.Tasks {
		if waiting[i] == 0 {
			heap.Push(ready, i)
		}
	}
	out := make([]*Task, 0, n)
	done := make([]bool, n)
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		done[i] = true
		out = append(out, p.Tasks[i])
		for _, u := range users[i] {
			if waiting[u]--; waiting[u] == 0 {
				heap.Push(ready, u)
			}
		}
	}
	for i, t := range p.Tasks {
		if !done[i] {
			out = append(out, t)
		}
	}
	return out
}

type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
