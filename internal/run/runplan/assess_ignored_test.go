package runplan

import "testing"

func TestDeletesUserData(t *testing.T) {
	del := deletesUserData([]string{"local.env", "data/", "web/uploads/", "build/", "node_modules/", "__pycache__/", "x.pyc"})
	for p, want := range map[string]bool{
		"local.env": true, "data": true, "data/db/x": true, "web": true, "web/uploads": true, "d*": true,
		"build": false, "node_modules": false, "src": false, "x.pyc": false, "loc": false,
	} {
		if got := del(p); got != want {
			t.Errorf("deletes %q: %v, want %v", p, got, want)
		}
	}
}
