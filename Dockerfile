# syntax=docker/dockerfile:1

# Build a static binary, cross-compiled for the target platform (multi-arch
# images build without emulation).
FROM --platform=$BUILDPLATFORM golang:1.26-alpine AS build
RUN apk add --no-cache ca-certificates
COPY go.mod go.sum /src/
RUN cd /src && go mod download
COPY . /src
ARG VERSION=dev
ARG TARGETOS
ARG TARGETARCH
RUN cd /src && CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/docs-publish .

# The image holds the binary and CA certificates, nothing else. It runs as
# root with no WORKDIR: the runner mounts the workspace and file-command
# directories owned by the host's user and starts the container in the
# workspace, which a non-root user could not write.
FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/docs-publish /usr/local/bin/docs-publish
ENTRYPOINT ["/usr/local/bin/docs-publish"]
