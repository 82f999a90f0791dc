package judge

import (
	"strings"
	"testing"
)

const rustLib = `pub fn mul(a: i32, b: i32) -> i32 { a * b }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul_works() {
        assert_eq!(mul(3, 4), 12); // a comment with a brace }
        let s = "a string with a brace {";
        let c = '}';
        let _l: &'static str = s;
    }

    #[tokio::test]
    async fn async_one() {
        assert!(true);
    }
}
`

func TestRustTests(t *testing.T) {
	got := rustTests([]byte(rustLib))
	if len(got) != 3 || got[cfgTestKey] != "000001" || got["mul_works"] == "" || got["async_one"] == "" {
		t.Fatalf("rustTests = %q", got)
	}
	if want := `#[test]fnmul_works(){assert_eq!(mul(3,4),12);//acommentwithabrace}lets="astringwithabrace{";letc='}';let_l:&'staticstr=s;}`; got["mul_works"] != want {
		t.Errorf("mul_works = %q\nwant       %q", got["mul_works"], want)
	}
	for _, tc := range []struct {
		name, src string
		same      bool // the same tests
	}{
		{"reformatted", rustLibWith("assert_eq!(mul(3, 4), 12);", "assert_eq!(\n            mul(3, 4),\n            12\n        );"), true},
		{"new code above", "pub fn add(a: i32, b: i32) -> i32 { a + b }\n" + rustLib, true},
		{"assertion changed", rustLibWith("assert_eq!(mul(3, 4), 12);", "assert_eq!(mul(3, 4), mul(3, 4));"), false},
		{"ignored", rustLibWith("    #[test]\n    fn mul_works", "    #[test]\n    #[ignore]\n    fn mul_works"), false},
		{"ignored above", rustLibWith("    #[test]\n    fn mul_works", "    #[ignore]\n    #[test]\n    fn mul_works"), false},
		{"module off", rustLibWith("#[cfg(test)]", "#[cfg(any())]"), false},
	} {
		now := rustTests([]byte(tc.src))
		same := len(now) == len(got)
		for k, v := range got {
			if k == cfgTestKey {
				same = same && now[k] >= v
			} else {
				same = same && now[k] == v
			}
		}
		if same != tc.same {
			t.Errorf("%s: same = %v, want %v (%q)", tc.name, same, tc.same, now)
		}
	}
}

func rustLibWith(old, new string) string {
	return strings.Replace(rustLib, old, new, 1)
}
