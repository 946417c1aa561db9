// Package webapp holds the browser app's tests in Debian's Chromium, against
// a node in process: the app of package web as host serves it.
package webapp
