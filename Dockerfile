# One image recipe for every Queuegate service; the build arg SERVICE picks which one:
#   docker build --build-arg SERVICE=ingest-service -t queuegate/ingest-service .
# (docker-compose.yml builds all three.)

# ---- build: the product's modules (the default build, no -Ptooling), tests skipped (./test.sh runs them) ----
FROM maven:3.9-eclipse-temurin-25 AS build
WORKDIR /src
ENV MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow"
COPY . .
RUN mvn -B -q -DskipTests package
# SERVICE is declared after the build so the three images share the cached build layer above.
ARG SERVICE
RUN test -n "${SERVICE}" || { echo "build arg SERVICE is required (ingest-service, admission-worker or booking-service)" >&2; exit 1; } \
 && cp "${SERVICE}"/target/"${SERVICE}"-*-exec.jar /app.jar

# ---- runtime ----
FROM eclipse-temurin:25-jre
ARG SERVICE
LABEL org.opencontainers.image.title="queuegate-${SERVICE}" \
      org.opencontainers.image.description="Queuegate virtual waiting room: ${SERVICE}"
# curl for the container health check
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin queuegate
WORKDIR /app
COPY --from=build /app.jar /app/app.jar
USER queuegate
ENV JAVA_OPTS="-XX:+UseG1GC -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
EXPOSE 8080 8081 8082
ENTRYPOINT ["sh", "-c", "exec java --sun-misc-unsafe-memory-access=allow $JAVA_OPTS -jar /app/app.jar"]
