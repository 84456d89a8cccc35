# cuebot in a container: the single binary on a slim Debian, data on a volume.
#   docker build -t cuebot .
#   docker run -p 8080:8080 -v cuebot-data:/data -e CUEBOT_PUBLIC_URL=https://bot.example.com cuebot
#   docker run --rm -v cuebot-data:/data cuebot users list        (any admin command)

# Build: Node brings npm, and npm brings the bun runtime (a devDependency), so the lockfile decides
# every version. Debian bookworm (glibc) matches the runtime image below.
FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Run: only the binary. Bun brings its own CA certificates and SQLite, so the base stays bare.
FROM debian:bookworm-slim
RUN groupadd --system --gid 10001 cuebot \
  && useradd --system --uid 10001 --gid cuebot --home-dir /data --shell /usr/sbin/nologin cuebot \
  && mkdir -p /data \
  && chown cuebot:cuebot /data \
  && chmod 0700 /data
COPY --from=build /src/dist/cuebot /cuebot
USER cuebot
WORKDIR /data
# Listen on every interface inside the container; publish the port to choose who can reach it.
# Set CUEBOT_PUBLIC_URL to the address users open (the OAuth redirect is <public url>/auth/callback).
ENV CUEBOT_HOST=0.0.0.0 \
  CUEBOT_PORT=8080 \
  CUEBOT_DATA_DIR=/data \
  CUEBOT_LOG_FORMAT=json
VOLUME ["/data"]
EXPOSE 8080
# serve stops on SIGTERM (docker stop) after finishing in-flight requests, exit 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/cuebot"]
CMD ["serve"]
