package record

import "testing"

func TestCostTrailerRoundTrip(t *testing.T) {
	for _, c := range []Cost{{In: 5000, Out: 500}, {In: 1, Out: 2, USD: 0.03, HasUSD: true}, {}} {
		got, err := ParseCost(c.String())
		if err != nil || got != c {
			t.Errorf("ParseCost(%q) = %+v, %v; want %+v", c.String(), got, err, c)
		}
	}
	if s := (Cost{In: 5000, Out: 500, USD: 0.018, HasUSD: true}).String(); s != "tokens in=5000 out=500; usd=0.0180" {
		t.Errorf("String = %q", s)
	}
	for _, bad := range []string{"", "in=1 out=2", "tokens in=1 out=2; eur=3", "tokens in=x out=2"} {
		if _, err := ParseCost(bad); err == nil {
			t.Errorf("ParseCost(%q) accepted", bad)
		}
	}
}

func TestCostAdd(t *testing.T) {
	got := Cost{In: 10, Out: 1}.Add(Cost{In: 5, Out: 2, USD: 0.5, HasUSD: true})
	if want := (Cost{In: 15, Out: 3, USD: 0.5, HasUSD: true}); got != want || got.Tokens() != 18 {
		t.Errorf("Add = %+v (tokens %d), want %+v", got, got.Tokens(), want)
	}
}
