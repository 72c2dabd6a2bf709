<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>reef::ui::CompareView</name>
    <message numerus="yes">
        <source>Running %n arm(s)…</source>
        <translation>
            <numerusform>Running %n arm…</numerusform>
            <numerusform>Running %n arms…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>reef::ui::MainWindow</name>
    <message numerus="yes">
        <source>Opened %1 (%n character(s))</source>
        <translation>
            <numerusform>Opened %1 (%n character)</numerusform>
            <numerusform>Opened %1 (%n characters)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported %1: %n chapter(s)</source>
        <translation>
            <numerusform>Imported %1: %n chapter</numerusform>
            <numerusform>Imported %1: %n chapters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>reef::ui::ProductionDialog</name>
    <message numerus="yes">
        <source>%1 min · %2 LUFS integrated · true peak %3 dBTP · %n chapter(s)</source>
        <translation>
            <numerusform>%1 min · %2 LUFS integrated · true peak %3 dBTP · %n chapter</numerusform>
            <numerusform>%1 min · %2 LUFS integrated · true peak %3 dBTP · %n chapters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) into %1.</source>
        <translation>
            <numerusform>Wrote %n file into %1.</numerusform>
            <numerusform>Wrote %n files into %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>reef::ui::ProjectView</name>
    <message numerus="yes">
        <source>%n take(s)</source>
        <translation>
            <numerusform>%n take</numerusform>
            <numerusform>%n takes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n segment(s)</source>
        <translation>
            <numerusform>%n segment</numerusform>
            <numerusform>%n segments</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>reef::ui::QueueView</name>
    <message numerus="yes">
        <source>%n item(s) waiting for the model.</source>
        <translation>
            <numerusform>%n item waiting for the model.</numerusform>
            <numerusform>%n items waiting for the model.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) to go</source>
        <translation>
            <numerusform>%n item to go</numerusform>
            <numerusform>%n items to go</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n done</source>
        <translation>
            <numerusform>%n done</numerusform>
            <numerusform>%n done</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n failed</numerusform>
            <numerusform>%n failed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cancelled</source>
        <translation>
            <numerusform>%n cancelled</numerusform>
            <numerusform>%n cancelled</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>reef::ui::StudioController</name>
    <message numerus="yes">
        <source>Wrote %n file(s) to %1</source>
        <translation>
            <numerusform>Wrote %n file to %1</numerusform>
            <numerusform>Wrote %n files to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n segment(s) without audio skipped</source>
        <translation>
            <numerusform>; %n segment without audio skipped</numerusform>
            <numerusform>; %n segments without audio skipped</numerusform>
        </translation>
    </message>
</context>
</TS>
