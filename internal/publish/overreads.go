package publish

import "path"

// readsOverwritten finds, once every description is loaded and before
// anything is written or sent, a place the run writes (a bundle, a zip, a
// site, the report) where a file that a description read is: one its $refs
// name, or its base's. Only then are all of them known. Each such file is
// claimed by the description that read it (unit.reads), and clashes judges
// the claims as it judges the inputs, with the same errors, for every
// description whatever its load or comparison found: a clash joins the
// error it has. A description clashed (unit.clashed) when its own paths
// clash or a file read is where its bundle goes: its bundle is not kept.
func readsOverwritten(units []*unit) {
	writes := map[string]bool{}
	for _, u := range units {
		for _, w := range []string{u.plan.BundlePath, u.plan.ZipPath, u.plan.SitePath, u.plan.ReportPath} {
			if w != "" {
				writes[leadsTo(u.ws, w)] = true
			}
		}
	}
	if len(writes) == 0 {
		return
	}
	hit := map[string]bool{} // the writes where a file read is
	for _, u := range units {
		for _, r := range u.ws.Read() {
			for real := leadsTo(u.ws, r); ; real = path.Dir(real) {
				if writes[real] {
					u.reads, hit[real] = append(u.reads, r), true
					break
				}
				if real == "." || real == "/" {
					break
				}
			}
		}
	}
	if len(hit) == 0 {
		return
	}
	had := make([]error, len(units))
	for i, u := range units {
		u.clashed = u.plan.BundlePath != "" && hit[leadsTo(u.ws, u.plan.BundlePath)]
		had[i], u.err = u.err, nil
	}
	clashes(units)
	for i, u := range units {
		clash := u.err
		u.clashed = u.clashed || clash != nil
		u.err = had[i]
		u.fail(clash)
	}
}

// configPath is the config file's path in the workspace, "" when the run
// has none or it is not in the workspace.
func configPath(u *unit) string {
	if u.cfg.ConfigFile == "" {
		return ""
	}
	rel, err := u.ws.Path(u.cfg.ConfigFile)
	if err != nil {
		return ""
	}
	return rel
}
