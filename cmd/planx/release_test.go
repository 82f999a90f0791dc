package main

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goreleaser is the part of the goreleaser v2 schema .goreleaser.yaml uses.
// Decoding is strict (KnownFields), so a misspelt or unknown key fails here,
// offline, before a release does. `goreleaser check` (in .ci/run) validates
// against goreleaser itself.
type goreleaser struct {
	Version     int    `yaml:"version"`
	ProjectName string `yaml:"project_name"`
	Before      struct {
		Hooks []string `yaml:"hooks"`
	} `yaml:"before"`
	Builds []struct {
		ID           string   `yaml:"id"`
		Main         string   `yaml:"main"`
		Binary       string   `yaml:"binary"`
		Env          []string `yaml:"env"`
		Goos         []string `yaml:"goos"`
		Goarch       []string `yaml:"goarch"`
		Flags        []string `yaml:"flags"`
		Ldflags      []string `yaml:"ldflags"`
		ModTimestamp string   `yaml:"mod_timestamp"`
	} `yaml:"builds"`
	Archives []struct {
		ID           string   `yaml:"id"`
		IDs          []string `yaml:"ids"`
		Formats      []string `yaml:"formats"`
		NameTemplate string   `yaml:"name_template"`
		Files        []string `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Algorithm    string `yaml:"algorithm"`
	} `yaml:"checksum"`
	Snapshot struct {
		VersionTemplate string `yaml:"version_template"`
	} `yaml:"snapshot"`
	Changelog struct {
		Use  string `yaml:"use"`
		Sort string `yaml:"sort"`
	} `yaml:"changelog"`
	Release struct {
		GitHub struct {
			Owner string `yaml:"owner"`
			Name  string `yaml:"name"`
		} `yaml:"github"`
	} `yaml:"release"`
}

func TestGoreleaserConfig(t *testing.T) {
	src, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg goreleaser
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if cfg.Version != 2 || cfg.ProjectName != "planx" || len(cfg.Builds) != 1 || len(cfg.Archives) != 1 {
		t.Fatalf("config = %+v", cfg)
	}
	b := cfg.Builds[0]
	if b.Main != "./cmd/planx" || b.Binary != "planx" || !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Errorf("build = %+v", b)
	}
	for _, want := range [][2][]string{{b.Goos, {"linux", "darwin"}}, {b.Goarch, {"amd64", "arm64"}}} {
		for _, w := range want[1] {
			if !slices.Contains(want[0], w) {
				t.Errorf("build lacks %s: %v", w, want[0])
			}
		}
	}
	// Windows is excluded on purpose; the file must say why.
	if slices.Contains(b.Goos, "windows") == strings.Contains(string(src), "Windows is left out on purpose") {
		t.Error("windows builds and the comment explaining their absence disagree")
	}
	// The ldflags must target variables that exist in this package; the
	// references below stop the build if they are renamed.
	_, _ = version, commit
	ld := strings.Join(b.Ldflags, " ")
	if !strings.Contains(ld, "-X main.version=") || !strings.Contains(ld, "-X main.commit=") {
		t.Errorf("ldflags do not set main.version and main.commit: %q", ld)
	}
	a := cfg.Archives[0]
	if !slices.Contains(a.IDs, b.ID) || len(a.Formats) == 0 {
		t.Errorf("archive = %+v", a)
	}
	for _, f := range a.Files {
		if !strings.ContainsAny(f, "*?[") {
			if _, err := os.Stat("../../" + f); err != nil {
				t.Errorf("archive file %s: %v", f, err)
			}
		}
	}
	if cfg.Release.GitHub.Owner+"/"+cfg.Release.GitHub.Name != "planx-dev/planx" {
		t.Errorf("release target = %+v, want the module's repository", cfg.Release.GitHub)
	}
	if cfg.Checksum.Algorithm != "sha256" || cfg.Checksum.NameTemplate == "" {
		t.Errorf("checksum = %+v", cfg.Checksum)
	}
}
