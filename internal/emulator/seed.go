package emulator

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// The seed file (docs-publish emulator --seed FILE): the projects, their
// docs and how their builds go, in JSON or YAML.
//
//	token: emulator-token
//	build-delay: 2s
//	projects:
//	  - id: "4711"
//	    branches: [main, develop]
//	    docs:
//	      - {id: "17", file: openapi.yml, branch: main}
//	      - {id: "18", file: openapi.yml, branch: develop, fail: the theme does not build}

type seedFile struct {
	Token      string        `yaml:"token"`
	Prefix     string        `yaml:"prefix"`
	BuildDelay string        `yaml:"build-delay"`
	Projects   []seedProject `yaml:"projects"`
}

type seedProject struct {
	ID       string    `yaml:"id"`
	Branches []string  `yaml:"branches"`
	Docs     []seedDoc `yaml:"docs"`
}

type seedDoc struct {
	ID     string `yaml:"id"`
	Domain string `yaml:"domain"`
	File   string `yaml:"file"`
	Branch string `yaml:"branch"`
	Fail   string `yaml:"fail"`
}

// SeedError is a seed file the emulator cannot use: Field is where, such
// as "projects[0].docs[1].id", Msg what is wrong when Err's words are
// not the reader's.
type SeedError struct {
	Field, Msg string
	Err        error
}

func (e *SeedError) Error() string {
	msg := e.Msg
	if msg == "" {
		msg = e.Err.Error()
	}
	if e.Field == "" {
		return msg
	}
	return e.Field + ": " + msg
}

func (e *SeedError) Unwrap() error { return e.Err }

// ParseSeed reads a seed file over the defaults of base: the token, prefix
// and build delay it sets replace base's, and its projects, when it has
// any, replace base's (see AddDoc for the defaults of a doc). A project
// without branches has those its docs render, or any if it has no doc.
func ParseSeed(data []byte, base Config) (Config, error) {
	var f seedFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, seedSyntaxError(err)
	}
	cfg := base
	if f.Token != "" {
		cfg.Token = f.Token
	}
	if f.Prefix != "" {
		cfg.Prefix = f.Prefix
	}
	if f.BuildDelay != "" {
		d, err := time.ParseDuration(f.BuildDelay)
		if err != nil || d < 0 {
			return Config{}, &SeedError{Field: "build-delay", Err: fmt.Errorf("%q is not a duration such as 300ms or 2s", f.BuildDelay)}
		}
		cfg.BuildDelay = d
	}
	if len(f.Projects) > 0 {
		projects, err := seedProjects(f.Projects)
		if err != nil {
			return Config{}, err
		}
		cfg.Projects = projects
	}
	return cfg, nil
}

// goTypeName is how yaml names the Go types it decodes into.
var goTypeName = regexp.MustCompile(` (in|into) type \S+`)

// seedSyntaxError says what yaml could not read, without the Go types.
func seedSyntaxError(err error) *SeedError {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return &SeedError{Err: err}
	}
	msgs := make([]string, len(te.Errors))
	for i, e := range te.Errors {
		msgs[i] = goTypeName.ReplaceAllString(e, "")
	}
	return &SeedError{Err: err, Msg: strings.Join(msgs, "; ") + " (the keys: token, prefix, build-delay, projects; a project's: id, branches, docs; a doc's: id, domain, file, branch, fail)"}
}

func seedProjects(in []seedProject) ([]Project, error) {
	var cfg Config
	for i, sp := range in {
		at := fmt.Sprintf("projects[%d]", i)
		if sp.ID == "" {
			return nil, &SeedError{Field: at + ".id", Err: errors.New("a project needs an id")}
		}
		if cfg.project(sp.ID) != nil {
			return nil, &SeedError{Field: at + ".id", Err: fmt.Errorf("project %s is seeded twice", sp.ID)}
		}
		cfg.Projects = append(cfg.Projects, Project{ID: sp.ID, Branches: sp.Branches})
		for j, sd := range sp.Docs {
			d := Doc(sd)
			if err := cfg.AddDoc(sp.ID, d); err != nil {
				return nil, &SeedError{Field: fmt.Sprintf("%s.docs[%d]", at, j), Err: err}
			}
		}
	}
	return cfg.Projects, nil
}

// AddDoc adds d to the project, which it creates if need be. The doc's
// file defaults to openapi.yml and its branch to main; the branch it
// renders exists in the project. Doc ids are unique across projects, as
// the service's are.
func (c *Config) AddDoc(projectID string, d Doc) error {
	if d.ID == "" {
		return errors.New("a doc needs an id")
	}
	for _, p := range c.Projects {
		for _, other := range p.Docs {
			if other.ID == d.ID {
				return fmt.Errorf("doc %s is seeded twice (doc ids are unique across projects)", d.ID)
			}
		}
	}
	if d.File == "" {
		d.File = "openapi.yml"
	}
	if d.Branch == "" {
		d.Branch = "main"
	}
	p := c.project(projectID)
	if p == nil {
		c.Projects = append(c.Projects, Project{ID: projectID})
		p = &c.Projects[len(c.Projects)-1]
	}
	if !slices.Contains(p.Branches, d.Branch) {
		p.Branches = append(p.Branches, d.Branch)
	}
	p.Docs = append(p.Docs, d)
	return nil
}

// FailBuilds makes every build of the doc fail with msg.
func (c *Config) FailBuilds(docID, msg string) error {
	for i := range c.Projects {
		for j := range c.Projects[i].Docs {
			if c.Projects[i].Docs[j].ID == docID {
				c.Projects[i].Docs[j].Fail = msg
				return nil
			}
		}
	}
	return fmt.Errorf("no doc %s to fail the builds of", docID)
}

func (c *Config) project(id string) *Project {
	for i := range c.Projects {
		if c.Projects[i].ID == id {
			return &c.Projects[i]
		}
	}
	return nil
}
