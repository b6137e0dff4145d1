package io.queuegate.core.web;

/** The one check of a product id taken from a path or a body. */
public final class ProductIds {

    private ProductIds() {
    }

    /** @throws ApiException 400 {@code invalid_request} unless the id is positive */
    public static long requirePositive(long productId) {
        if (productId <= 0) {
            throw ApiException.invalidRequest("productId must be a positive integer.");
        }
        return productId;
    }
}
