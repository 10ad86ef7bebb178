/**
 * cloudlock core: the ShedLock provider on any {@link dev.cloudlock.spi.LockStore}, and the store SPI.
 */
module dev.cloudlock.core {
    requires transitive net.javacrumbs.shedlock.core;
    requires org.slf4j;
    requires static transitive org.jspecify;

    exports dev.cloudlock.core;
    exports dev.cloudlock.spi;

    uses dev.cloudlock.spi.StoreType;

    provides dev.cloudlock.spi.StoreType with
            dev.cloudlock.core.InMemoryStoreType;
}
