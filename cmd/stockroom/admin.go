package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/stockroom/stockroom/cmd/stockroom/app"
	"github.com/stockroom/stockroom/core/access"
)

func orgsCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: stockroom orgs create|list|set ...")
	}
	fs := newFlags("orgs "+args[0], stderr)
	configPath := fs.String("config", "", "configuration file")
	name := fs.String("name", "", "organization name")
	credits := fs.Int64("credits", -1, "credit balance")
	autoTopUp := fs.String("auto-top-up", "", "auto top-up: on or off")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *name == "" && fs.NArg() > 0 {
		*name = fs.Arg(0)
	}
	svc, err := openAdmin(ctx, *configPath)
	if err != nil {
		return err
	}
	defer svc.Close()
	store := svc.Access().Store()
	change, err := orgChange(*credits, *autoTopUp)
	if err != nil {
		return err
	}

	switch args[0] {
	case "create":
		if *name == "" {
			return errors.New("orgs create: --name is required")
		}
		var c int64
		if change.Credits != nil {
			c = *change.Credits
		}
		org, err := store.CreateOrganization(ctx, *name, c, change.AutoTopUp != nil && *change.AutoTopUp)
		if err != nil {
			return err
		}
		return printOrgs(stdout, []access.Organization{org})
	case "list":
		orgs, err := store.Organizations(ctx)
		if err != nil {
			return err
		}
		return printOrgs(stdout, orgs)
	case "set":
		if *name == "" {
			return errors.New("orgs set: --name is required")
		}
		org, err := store.UpdateOrganization(ctx, *name, change)
		if err != nil {
			return err
		}
		return printOrgs(stdout, []access.Organization{org})
	}
	return fmt.Errorf("unknown orgs command %q (create, list, set)", args[0])
}

// openAdmin connects what the administrative commands need: Postgres only.
func openAdmin(ctx context.Context, configPath string) (*app.Service, error) {
	cfg, err := loadConfig(configPath)
	if err != nil {
		return nil, err
	}
	return app.NewAdmin(ctx, cfg)
}

func orgChange(credits int64, autoTopUp string) (access.OrganizationChange, error) {
	var change access.OrganizationChange
	if credits >= 0 {
		change.Credits = &credits
	}
	switch autoTopUp {
	case "":
	case "on", "true":
		on := true
		change.AutoTopUp = &on
	case "off", "false":
		off := false
		change.AutoTopUp = &off
	default:
		return change, fmt.Errorf("--auto-top-up must be on or off, got %q", autoTopUp)
	}
	return change, nil
}

func printOrgs(w io.Writer, orgs []access.Organization) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tID\tCREDITS\tAUTO TOP-UP\tCREATED")
	for _, o := range orgs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", o.Name, o.ID, o.Credits, onOff(o.AutoTopUp), o.CreatedAt.UTC().Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func keysCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: stockroom keys create|list|revoke ...")
	}
	fs := newFlags("keys "+args[0], stderr)
	configPath := fs.String("config", "", "configuration file")
	org := fs.String("org", "", "organization name")
	name := fs.String("name", "", "a label for the key")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	svc, err := openAdmin(ctx, *configPath)
	if err != nil {
		return err
	}
	defer svc.Close()
	accounts := svc.Access()

	switch args[0] {
	case "create":
		if *org == "" {
			return errors.New("keys create: --org is required")
		}
		key, secret, err := accounts.IssueKey(ctx, *org, *name)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created key %s (prefix %s) for organization %s; it is shown once:\n", key.ID, key.Prefix, *org)
		_, err = fmt.Fprintln(stdout, secret) // the last line, for scripts
		return err
	case "list":
		if *org == "" {
			return errors.New("keys list: --org is required")
		}
		o, err := accounts.Store().OrganizationByName(ctx, *org)
		if err != nil {
			return fmt.Errorf("organization %q: %w", *org, err)
		}
		list, err := accounts.Store().Keys(ctx, o.ID)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tPREFIX\tNAME\tCREATED\tLAST USED\tREVOKED")
		for _, k := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Prefix, k.Name, k.CreatedAt.UTC().Format("2006-01-02 15:04"), timeOrDash(k.LastUsedAt), timeOrDash(k.RevokedAt))
		}
		return tw.Flush()
	case "revoke":
		if fs.NArg() != 1 {
			return errors.New("usage: stockroom keys revoke KEY_ID_OR_PREFIX")
		}
		if err := accounts.Store().RevokeKey(ctx, fs.Arg(0)); err != nil {
			return err
		}
		_, err := fmt.Fprintf(stdout, "revoked %s\n", strconv.Quote(fs.Arg(0)))
		return err
	}
	return fmt.Errorf("unknown keys command %q (create, list, revoke)", args[0])
}

// timeOrDash is t to the minute in UTC, or "-" when there is none.
func timeOrDash(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04")
}
