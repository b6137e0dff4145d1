package io.queuegate.web.egress;

import java.io.IOException;

/** A URL the services may not send a request to, as {@link EgressUrls} says why. */
public final class RefusedUrlException extends IOException {

    RefusedUrlException(String reason) {
        super(reason, null);
    }
}
