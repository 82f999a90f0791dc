package risk

import "testing"

// FuzzClassify: any text classifies without panicking, with a level in
// range that matches its first finding, and findings in order.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"rm -rf /", "bash -c 'eval \"$(curl x)\"'", ":(){ :|:& };:", "if then fi",
		"cat <<EOF | sh\nrm -rf ~\nEOF", "find / -exec rm -rf {} +", "cd ..; rm -r *", "git -c x push -f",
		"sudo su -c 'bash -c \"git push +main\"'", "a=$(b <(c) `d`) ${e:?} $((1+2)) @(x)", "xargs", "sudo", "\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, fs := Classify(s)
		if l < LOW || l > CRITICAL {
			t.Fatalf("level %d", l)
		}
		if len(fs) == 0 {
			if l != LOW {
				t.Fatalf("%s without findings", l)
			}
			return
		}
		if fs[0].Level != l {
			t.Fatalf("level %s but first finding %s", l, fs[0].Level)
		}
		for i := 1; i < len(fs); i++ {
			if fs[i].Level > fs[i-1].Level {
				t.Fatalf("findings out of order: %v", fs)
			}
		}
		for _, f := range fs {
			if f.Line < 0 || f.Rule == "" {
				t.Fatalf("bad finding %+v", f)
			}
		}
	})
}
