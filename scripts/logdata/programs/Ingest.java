// A batch job that ingests shipment records with java.util.logging (source of tests/logdata/jvm-ingest.log).
// It parses a seeded batch of CSV-like records for real; malformed records raise real JDK exceptions,
// wrapped twice so the log shows a stack trace chain with "Caused by:" and "... N more".
import java.util.Random;
import java.util.logging.Level;
import java.util.logging.Logger;

public class Ingest {
    private static final Logger LOG = Logger.getLogger("com.example.ingest.BatchRunner");
    private static final Logger DB = Logger.getLogger("com.example.ingest.ShipmentStore");

    static final class IngestException extends RuntimeException {
        IngestException(String msg, Throwable cause) { super(msg, cause); }
    }

    static int parseWeight(String field) {
        return Integer.parseInt(field.trim());
    }

    static int[] parseRecord(String line) {
        String[] parts = line.split(",");
        try {
            return new int[] {Integer.parseInt(parts[0]), parseWeight(parts[2])};
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            throw new IllegalStateException("malformed record: " + line, e);
        }
    }

    static void store(int batch, int row, String line) {
        try {
            int[] rec = parseRecord(line);
            if (rec[1] > 30000) {
                DB.warning(String.format("shipment %d weight %d kg exceeds container limit, flagged for review", rec[0], rec[1]));
            }
        } catch (IllegalStateException e) {
            throw new IngestException("batch " + batch + " row " + row + " rejected", e);
        }
    }

    public static void main(String[] args) {
        Random rnd = new Random(15);
        LOG.info("ingest starting: source=s3://shipments/2026-11 batches=12 rows/batch=30");
        int ok = 0, bad = 0;
        for (int batch = 1; batch <= 12; batch++) {
            for (int row = 1; row <= 30; row++) {
                int id = 700000 + batch * 100 + row;
                String weight = Integer.toString(500 + rnd.nextInt(30000));
                if (batch == 4 && row == 17) weight = "12,5O0";
                if (batch == 9 && row == 3) weight = " n/a";
                String line = id + ",MSKU" + (1000000 + rnd.nextInt(8999999)) + "," + weight;
                try {
                    store(batch, row, line);
                    ok++;
                    if (row % 1 == 0) LOG.fine("stored " + id);
                    LOG.info(String.format("stored shipment %d (batch %d row %d)", id, batch, row));
                } catch (IngestException e) {
                    bad++;
                    LOG.log(Level.SEVERE, "record failed, continuing with next row", e);
                }
            }
            LOG.info(String.format("batch %d committed: %d rows", batch, 30));
        }
        LOG.info(String.format("ingest finished: %d stored, %d rejected", ok, bad));
        if (bad > 0) {
            throw new IngestException("ingest completed with " + bad + " rejected rows", null);
        }
    }
}
