package com.example.nightly;

// snippet:application
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

@SpringBootApplication
@EnableScheduling
public class NightlyReportApplication {

    public static void main(String[] args) {
        SpringApplication.run(NightlyReportApplication.class, args);
    }
}
// end-snippet:application
