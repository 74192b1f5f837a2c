// raven-go (Debian's golang-github-getsentry-raven-go-dev) sending one error to SENTRY_DSN's
// store endpoint, as an app would: an exception with its stack trace and an extra large enough
// (over 1,000 bytes of JSON) that raven-go sends the body as base64 of zlib-deflated JSON.
// Prints {"id": "<event id>"} once the server has answered.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	raven "github.com/getsentry/raven-go"
)

func chargeCard(amount int) error {
	return errors.New(fmt.Sprintf("raven-go card declined for %d", amount))
}

func main() {
	if err := raven.SetDSN(os.Getenv("SENTRY_DSN")); err != nil {
		fmt.Fprintln(os.Stderr, "dsn:", err)
		os.Exit(2)
	}
	raven.SetRelease("raven-go@1.0.0")
	raven.SetEnvironment("staging")
	err := chargeCard(42)
	extra := raven.Extra{"order": strings.Repeat("order-line ", 150)}
	packet := raven.NewPacketWithExtra(err.Error(), extra, raven.NewException(err, raven.NewStacktrace(0, 3, nil)))
	id, ch := raven.Capture(packet, map[string]string{"client": "raven-go"})
	if sendErr := <-ch; sendErr != nil {
		fmt.Fprintln(os.Stderr, "send:", sendErr)
		os.Exit(1)
	}
	out, _ := json.Marshal(map[string]string{"id": id})
	fmt.Println(string(out))
}
