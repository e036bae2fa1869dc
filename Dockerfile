# No "# syntax=" line: it would make BuildKit pull a frontend image.
#
# The image users get: the release workflow builds it from source, in the
# build stage below (docker buildx build .). The very same final stage is
# built on a machine without image registries from a binary built there
# (docker build --build-arg BIN_SOURCE=prebuilt, with the binary and the
# machine's CA certificates in the build context: see container_test.go and
# .ci/run). BuildKit builds only the stages the final one needs.
ARG GO_IMAGE=golang:1.26-alpine
ARG BIN_SOURCE=build

# Build a static binary, cross-compiled for the target platform (multi-arch
# images build without emulation).
FROM --platform=$BUILDPLATFORM ${GO_IMAGE} AS build
RUN apk add --no-cache ca-certificates
COPY go.mod go.sum /src/
RUN cd /src && go mod download
COPY . /src
ARG VERSION=dev
# The build context has no .git, so the commit comes as an argument.
ARG COMMIT=
ARG TARGETOS
ARG TARGETARCH
RUN cd /src && CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -ldflags "-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}" -o /out/usr/local/bin/docs-publish . \
 && mkdir -p /out/etc/ssl/certs && cp /etc/ssl/certs/ca-certificates.crt /out/etc/ssl/certs/

# The same two files, from the build context: a static binary built on this
# machine (CGO_ENABLED=0 go build -trimpath) and its CA certificates.
FROM scratch AS prebuilt
COPY docs-publish /out/usr/local/bin/docs-publish
COPY ca-certificates.crt /out/etc/ssl/certs/ca-certificates.crt

FROM ${BIN_SOURCE} AS bin

# The image holds the binary and CA certificates, nothing else. It runs as
# root with no WORKDIR: the runner mounts the workspace and file-command
# directories owned by the host's user and starts the container in the
# workspace, which a non-root user could not write.
FROM scratch
COPY --from=bin /out/ /
ENTRYPOINT ["/usr/local/bin/docs-publish"]
